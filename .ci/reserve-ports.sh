#!/usr/bin/env bash
# Keeps the kernel from handing the fixed ports of a run to outgoing connections. The Dynamo
# sidecars' engines bind gRPC ports from 50051 up (config/PortTable.SIDECAR_GRPC_BASE), inside
# Linux's ephemeral range (32768-60999): a test's HTTP client or SSH connection that happened to
# get local port 50052 made an engine fail with "Address already in use". Every other fixed port
# of the port table lies below the ephemeral range. A GPU host running Dynamo arms wants the same
# setting (docs/config-reference.md#ports).
set -euo pipefail
range=50051-50306
current=$(cat /proc/sys/net/ipv4/ip_local_reserved_ports 2>/dev/null || true)
if [ -n "$current" ] && [[ ",$current," == *",$range,"* ]]; then
  exit 0
fi
if sysctl -q -w net.ipv4.ip_local_reserved_ports="${current:+$current,}$range"; then
  echo "[reserve-ports.sh] reserved $range from the ephemeral port range"
else
  echo "[reserve-ports.sh] warning: cannot reserve $range (no permission); a test's engine may find its port taken" >&2
fi
