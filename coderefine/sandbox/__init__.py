"""The host side of the sandbox: what every sandbox is (base), Docker with its warm pool (docker),
the local fallback (local), which one a run uses (open), the project's copy and its dependencies,
the image and its set-up (image), the doctor, and the host/box contract.
What runs inside the box is the top-level `sandbox/` folder.
"""
