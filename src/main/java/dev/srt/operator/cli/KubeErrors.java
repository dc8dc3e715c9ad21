package dev.srt.operator.cli;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * What an error of the API server means, in one line that names the cause: RBAC forbids it, it
 * does not exist, the credentials were refused, or the server cannot be reached; never Fabric8's
 * "Failure executing: GET at: https://..." or a stack trace.
 */
final class KubeErrors {
  private KubeErrors() {}

  static String describe(KubernetesClientException e, String what) {
    String server = e.getMessage() == null ? "" : e.getMessage();
    String status = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : null;
    return switch (e.getCode()) {
      case 401 -> "the API server refused the kubeconfig's credentials (401 Unauthorized) reading " + what;
      case 403 -> "forbidden by RBAC: " + (status != null ? status : "the kubeconfig's user may not read " + what)
          + " (kubectl auth can-i get routercomparisons.srt.dev)";
      case 404 -> "not found: " + what + (status != null ? " (" + status + ")" : "")
          + "; is the CRD installed? (kubectl get crd routercomparisons.srt.dev)";
      default -> unreachable(e) != null ? "cannot reach the API server: " + unreachable(e)
          : "the API server answered " + (e.getCode() > 0 ? e.getCode() + " " : "") + (status != null ? status : firstLine(server))
              + " reading " + what;
    };
  }

  /** The network cause (refused, unknown host, timeout, TLS), or null when the server was reached. */
  private static String unreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof HttpTimeoutException
          || t instanceof TimeoutException || t instanceof SSLException || t instanceof java.net.SocketTimeoutException) {
        String m = t.getMessage();
        return t.getClass().getSimpleName().replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT)
            + (m == null || m.isBlank() ? "" : ": " + m);
      }
    }
    return null;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
