"""Prompt templates, one module per task, each in Chinese and English.

Every template puts the student's text inside <problem> tags (app.llm.delimit) and says that
the block is data: instructions written inside it are part of the problem, not orders.
"""
