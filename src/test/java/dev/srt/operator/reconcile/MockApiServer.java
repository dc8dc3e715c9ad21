package dev.srt.operator.reconcile;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

/**
 * The Fabric8 CRUD mock API server over plain HTTP (so kubectl can talk to it too), with the CRDs
 * created through its API so that {@code status} is a subresource, and room for expectations
 * (discovery documents, reviews) that the CRUD part cannot answer. The one accepted stand-in: no
 * kube-apiserver can be had here, and the mock enforces neither schemas nor CEL.
 */
public final class MockApiServer implements AutoCloseable {
  /**
   * The mock logs every request at INFO through java.util.logging (hundreds of KB per CI run);
   * held in a field because JUL keeps loggers only weakly, and a collected one forgets its level.
   */
  private static final java.util.logging.Logger QUIET = quiet("io.fabric8.mockwebserver");

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
    logger.setLevel(java.util.logging.Level.WARNING);
    return logger;
  }

  public final KubernetesMockServer server;
  public final KubernetesClient client;

  public MockApiServer() {
    Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
    server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations, new KubernetesMixedDispatcher(expectations), false);
    server.init();
    client = server.createClient();
    for (String crd : List.of("gpuclusters.srt.dev-v1.yml", "routercomparisons.srt.dev-v1.yml")) {
      try (InputStream in = new FileInputStream("target/classes/META-INF/fabric8/" + crd)) {
        client.apiextensions().v1().customResourceDefinitions().resource(
            client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A kubeconfig (YAML text) for clients outside this JVM: kubectl, the operator process. */
  public String kubeconfig(String namespace) {
    return """
        apiVersion: v1
        kind: Config
        clusters: [{name: mock, cluster: {server: "http://localhost:%d"}}]
        users: [{name: me, user: {token: none}}]
        contexts: [{name: mock, context: {cluster: mock, user: me, namespace: %s}}]
        current-context: mock
        """.formatted(server.getPort(), namespace);
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }
}
