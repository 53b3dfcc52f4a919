"""The host side of the sandbox: Docker and local sandboxes and their warm pool (client), the image
and its set-up (image), the doctor, the project's dependencies, and the host/box contract.
What runs inside the box is the top-level `sandbox/` folder.
"""
