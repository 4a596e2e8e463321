#!/usr/bin/env bash
# Compares Vitals' GPU memory figure with nvidia-smi's on a machine with an NVIDIA GPU. Not called by CI.
#
# Needs: an NVIDIA driver (nvidia-smi on the PATH), the NVIDIA container toolkit (docker run --gpus), Docker on this
# host (Vitals attributes GPU processes through the container's cgroup), Maven and Java 17, and a CUDA-capable image:
# GPU_IMAGE (default tensorflow/tensorflow:2.16.1-gpu, which has GPU support).
#
# What it does: starts a TensorFlow GPU job in a container (--gpus all), reads the container's PIDs from its cgroup,
# and compares
#   (a) nvidia-smi --query-compute-apps used_memory summed over those PIDs, and
#   (b) what Vitals' GPU source attributes to the container, through nvidia-smi and through NVML
#       (io.vitals.internal.gpu.GpuCheck, test classes),
# printing both. Exit 1 with "no NVIDIA GPU visible: nvidia-smi not found" where there is no GPU.
set -euo pipefail

SMI="${NVIDIA_SMI:-nvidia-smi}"
IMAGE="${GPU_IMAGE:-tensorflow/tensorflow:2.16.1-gpu}"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"

if ! command -v "$SMI" >/dev/null 2>&1; then
  echo "no NVIDIA GPU visible: nvidia-smi not found" >&2
  exit 1
fi
if ! "$SMI" --query-gpu=uuid --format=csv,noheader >/dev/null 2>&1; then
  echo "no NVIDIA GPU visible: $SMI does not answer (driver not loaded?)" >&2
  exit 1
fi
"$SMI" --query-gpu=uuid,name,driver_version,memory.total --format=csv,noheader

name="vitals-gpu-check-$$"
cleanup() { docker rm -f "$name" >/dev/null 2>&1 || true; }
trap cleanup EXIT

# A GPU job that holds about 1 GiB with memory growth on (what TensorFlowContainer sets by default) for 30 s.
docker run -d --name "$name" --gpus all -e TF_FORCE_GPU_ALLOW_GROWTH=true "$IMAGE" python -c '
import time, tensorflow as tf
with tf.device("/GPU:0"):
    x = tf.random.uniform([16384, 16384])   # 1 GiB of float32
    for _ in range(300):
        y = tf.matmul(x, x); _ = y.numpy()[0, 0]; time.sleep(0.1)
' >/dev/null
sleep 15

pid=$(docker inspect -f '{{.State.Pid}}' "$name")
cg=$(awk -F: '$2=="" || $2 ~ /(^|,)pids(,|$)/ {print $3; exit}' "/proc/$pid/cgroup")
dir=$(find /sys/fs/cgroup -type d -path "*${cg}" 2>/dev/null | head -1)
pids=$(find "$dir" -name cgroup.procs -exec cat {} + | sort -u | tr '\n' ' ')
echo "container host PIDs: $pids"

smi_mib=$("$SMI" --query-compute-apps=pid,used_memory,gpu_uuid --format=csv,noheader,nounits \
  | awk -F', ' -v pids=" $pids " 'index(pids, " " $1 " ") {sum += $2} END {print sum + 0}')
echo "nvidia-smi: ${smi_mib} MiB used by the container's processes"

# Vitals' own attribution, through the same source the extension stacks on its probes.
cd "$REPO"
mvn -B -q -pl extension test-compile >/dev/null
cp=$(mvn -B -q -pl extension dependency:build-classpath -Dmdep.outputFile=/dev/stdout)
status=0
# both of Vitals' drivers: nvidia-smi, and NVML through libnvidia-ml.so.1 (the default where it loads)
for driver in "$SMI" nvml; do
  vitals_bytes=$(java -cp "extension/target/classes:extension/target/test-classes:$cp" \
    io.vitals.internal.gpu.GpuCheck "$driver" "$(docker inspect -f '{{.Id}}' "$name")" "$pid")
  vitals_mib=$((vitals_bytes / 1024 / 1024))
  echo "Vitals ($driver): ${vitals_mib} MiB (peakGpuMemory of one sample)"
  # NVML counts bytes and nvidia-smi prints whole MiB: allow the rounding of one MiB
  diff=$((vitals_mib - smi_mib))
  if [ "${diff#-}" -gt 1 ]; then
    echo "MISMATCH: Vitals ($driver) ${vitals_mib} MiB, nvidia-smi ${smi_mib} MiB" >&2
    status=2
  fi
done
[ "$status" -eq 0 ] && echo "OK: Vitals (nvidia-smi and NVML) and nvidia-smi agree"
exit "$status"
