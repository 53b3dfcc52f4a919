"""What the judge calls both versions with: hypothesis strategies from everything known of each parameter
(hints, stubs, the calls seen, defaults, literals), examples and doctests. Runs in the judge's process,
on the original's module only."""
