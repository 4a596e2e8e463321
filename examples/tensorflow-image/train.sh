#!/bin/bash
# Launcher of the TensorFlow workload, installed as /usr/local/bin/train in the vitals/tensorflow image.
# Usage: train [flags]   (train --help lists them)
#
# JVM flags are container-aware defaults; anything in $JAVA_OPTS comes after them and so overrides them.
# JavaCPP's native-library cache is fixed to /opt/javacpp-cache, which the image warms at build time, so a
# container start never re-extracts TensorFlow's ~650 MB of native libraries.
# JavaCPP's own memory limits (maxBytes/maxPhysicalBytes) are switched off: the container's cgroup limit is
# what should stop a job that needs too much memory (OOM kill), not a Java OutOfMemoryError; for the same
# reason direct (off-heap) memory, where --leak-cache-mib leaks, is not capped by the JVM.
set -euo pipefail

export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-1}"

# $TRAIN_ARGS (set on the container, see TensorFlowContainer#withTrainArgs) adds flags to every run; they come
# after the run's own flags, so they win (e.g. --thread-spinning off for the whole suite).
# shellcheck disable=SC2086  # JAVA_OPTS and TRAIN_ARGS are deliberately word-split
exec java \
  -XX:+UseContainerSupport \
  -XX:MaxRAMPercentage=50 \
  -XX:+ExitOnOutOfMemoryError \
  -Xss1m \
  -XX:MaxDirectMemorySize=1t \
  -Dorg.bytedeco.javacpp.cachedir=/opt/javacpp-cache \
  -Dorg.bytedeco.javacpp.maxBytes=0 \
  -Dorg.bytedeco.javacpp.maxPhysicalBytes=0 \
  ${JAVA_OPTS:-} \
  -cp '/opt/vitals/workload.jar:/opt/vitals/lib/*' \
  io.vitals.workload.Train "$@" ${TRAIN_ARGS:-}
