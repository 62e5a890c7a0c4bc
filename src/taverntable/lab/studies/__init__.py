"""The studies' games: what each study plays per game and keeps as a row (the analysis of the
rows is in ``lab.report``)."""
