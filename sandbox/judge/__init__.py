"""The judge's process: draws the inputs, sends them to both versions, compares their answers, measures
their coverage and their time, and writes the verdict. It never runs a version's code."""
