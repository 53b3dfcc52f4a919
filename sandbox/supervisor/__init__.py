"""The runner's long-lived process: one request at a time in a forked child, its output under limits,
its privileges dropped, whatever it left behind killed. Runs as root in the container; no code under
check ever runs here."""
