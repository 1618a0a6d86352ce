"""The course in Jupyter: the ``%attnpos`` magic and lessons exported as notebooks.

Optional: ``pip install 'attnpos[jupyter]'`` brings IPython, nbformat and
nbclient. The magic reuses the checker, the sandbox and the progress store the
app and the command line use; the export reads the same lesson files.
"""
