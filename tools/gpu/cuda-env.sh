# Sourced by the bundle's scripts on the GPU host (after `cd` into bundle/): the CUDA libraries the
# CUDA execution provider loads are the ones the host's PyTorch venv ships (shared/GPU.md).
export LD_LIBRARY_PATH="$(ls -d /opt/torch/.venv/lib/python3.12/site-packages/nvidia/*/lib 2>/dev/null | tr '\n' :)${LD_LIBRARY_PATH:-}"
