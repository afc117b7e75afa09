"""trainer.bots"""
