"""The lab's report: one HTML page with tables, plots and CSVs from the study folders, and each
study's analysis of its rows."""
