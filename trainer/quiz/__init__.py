"""trainer.quiz"""
