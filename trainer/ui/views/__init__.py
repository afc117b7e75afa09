"""The pages' views: one module per page (practice, play, quiz, rules), each with ``show()``.

They may import every layer; the page files in ``trainer/ui/pages`` only call them.
"""
