#!/usr/bin/env bash
# kind-test.sh - run the provider conformance kit against a real Kubernetes cluster.
#
# Not run where the kubernetes provider was written (no API server could run there); this is
# for users who have a cluster. With KUBECONFIG unset and `kind` on PATH it creates a kind
# cluster named sandbox-factory-tck (kept afterwards; `kind delete cluster --name
# sandbox-factory-tck` removes it). With KUBECONFIG set it uses that file's current context, or
# SF_K8S_CONTEXT.
#
# Environment knobs (all optional):
#   SF_K8S_NAMESPACE  namespace for the kit's pods and claims (sandbox-factory-tck; created)
#   SF_K8S_IMAGE      sandbox image with sh, tar and git (alpine/git:latest; pulled by the nodes)
#   SF_K8S_GIT_HOST   address of this host the pods reach (kind: the docker network gateway,
#                     found automatically); the kit's fixture repository is served from it with
#                     git daemon on SF_K8S_GIT_PORT (9418), and the sandboxes get no NetworkPolicy
#   SF_K8S_CONTEXT    kubeconfig context
#
# Needs: a JDK 17+, git, kubectl; kind (and Docker) only to create a cluster.
set -euo pipefail

cd "$(dirname "$0")/.."
namespace="${SF_K8S_NAMESPACE:-sandbox-factory-tck}"

if [[ -z "${KUBECONFIG:-}" ]]; then
    command -v kind >/dev/null || { echo "kind-test.sh: set KUBECONFIG or install kind." >&2; exit 2; }
    export KUBECONFIG="$PWD/target/kind-kubeconfig"
    mkdir -p target
    if ! kind get clusters 2>/dev/null | grep -qx sandbox-factory-tck; then
        kind create cluster --name sandbox-factory-tck --kubeconfig "$KUBECONFIG" --wait 120s
    else
        kind get kubeconfig --name sandbox-factory-tck >"$KUBECONFIG"
    fi
    if [[ -z "${SF_K8S_GIT_HOST:-}" ]]; then
        SF_K8S_GIT_HOST="$(docker network inspect kind -f '{{range .IPAM.Config}}{{if .Gateway}}{{.Gateway}} {{end}}{{end}}' | awk '{print $1}')"
        export SF_K8S_GIT_HOST
    fi
fi

kubectl ${SF_K8S_CONTEXT:+--context "$SF_K8S_CONTEXT"} create namespace "$namespace" --dry-run=client -o yaml \
    | kubectl ${SF_K8S_CONTEXT:+--context "$SF_K8S_CONTEXT"} apply -f - >/dev/null

export SF_K8S_KUBECONFIG="$KUBECONFIG" SF_K8S_NAMESPACE="$namespace"
./mvnw -B -pl provider-kubernetes -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=KubernetesClusterTckIT -Dfailsafe.failIfNoSpecifiedTests=false
