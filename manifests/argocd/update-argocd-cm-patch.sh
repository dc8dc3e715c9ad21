#!/usr/bin/env bash
# Regenerates argocd-cm-patch.yaml from health/<group>_<Kind>/health.lua.
# HealthLuaTest fails when the patch and the scripts differ; run this after editing a health.lua.
set -euo pipefail
cd "$(dirname "$0")"
{
  cat <<'HEADER'
# Argo CD health checks for srt.dev/RouterComparison and srt.dev/GpuCluster (see docs/operator.md).
# Generated from health/*/health.lua by update-argocd-cm-patch.sh: do not edit the scripts here.
#
# Apply to a running Argo CD:
#   kubectl -n argocd patch configmap argocd-cm --type merge --patch-file manifests/argocd/argocd-cm-patch.yaml
# or list it under `patches:` in the kustomization that installs Argo CD.
apiVersion: v1
kind: ConfigMap
metadata:
  name: argocd-cm
  namespace: argocd
data:
HEADER
  for dir in health/*/; do
    key="$(basename "$dir")"
    printf '  resource.customizations.health.%s: |\n' "$key"
    sed -e 's/^\(.\)/    \1/' "$dir/health.lua"
  done
} > argocd-cm-patch.yaml.tmp
mv argocd-cm-patch.yaml.tmp argocd-cm-patch.yaml
