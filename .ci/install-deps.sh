#!/usr/bin/env bash
# Install the system packages the real-sshd / real-Slurm tests and the headless-browser check of the
# HTML report (ReportChromiumIT) need, and promtool (Debian's prometheus package) for the monitoring
# bundle's rules and scrape checks (PrometheusRulesTest, MetricsScrapeIT), and Debian's etcd and
# nats-server, which the emulated host runs for the Dynamo arms in place of its stand-ins (Debian 12).
# Idempotent: does nothing (and does not touch apt) when everything is already installed.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_root

packages=(openssh-server openssh-client slurm-wlm munge shellcheck jq iproute2 chromium fonts-dejavu-core prometheus etcd-server nats-server)

# The packages' own services would hold the ports the tests' runs give etcd and NATS (2379, 4222):
# the runs start their own, so the system's are stopped and kept from starting at boot.
stop_system_services() {
  local svc
  for svc in etcd nats-server; do
    if command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; then
      systemctl disable --now "${svc}" >/dev/null 2>&1 || true
    elif [[ -x "/etc/init.d/${svc}" ]]; then
      "/etc/init.d/${svc}" stop >/dev/null 2>&1 || true
    fi
  done
}

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg -s "${pkg}" 2>/dev/null | grep -q '^Status: install ok installed$'; then
    missing+=("${pkg}")
  fi
done

if [[ "${#missing[@]}" -eq 0 ]]; then
  step "all packages present: ${packages[*]}"
  stop_system_services
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
step "missing: ${missing[*]}; running apt-get update"
apt-get update -qq || die "apt-get update failed"
step "installing: ${missing[*]}"
# policy-rc.d denies service starts in containers; the postinst then prints
# "invoke-rc.d: policy-rc.d denied execution of start." which is expected.
apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/tmp/srt-install-deps.log 2>&1 \
  || { tail -n 30 /tmp/srt-install-deps.log >&2; die "apt-get install failed (full log: /tmp/srt-install-deps.log)"; }
step "installed: ${missing[*]}"
stop_system_services
