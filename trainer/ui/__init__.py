"""trainer.ui"""
