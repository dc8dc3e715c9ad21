package dev.srt.operator.reconcile;

import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.RouterComparison;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.function.Consumer;

/** Changes to a RouterComparison made as a user makes them, beside an operator that writes its status. */
final class UserEdits {
  private UserEdits() {}

  /**
   * Read, change, update. The operator writes the status meanwhile, so an update can meet a
   * conflict (409): then read again and change again.
   */
  static void change(KubernetesClient client, String namespace, String name, Duration within, Consumer<RouterComparison> edit) {
    await().atMost(within).ignoreExceptionsInstanceOf(KubernetesClientException.class).until(() -> {
      RouterComparison rc = client.resources(RouterComparison.class).inNamespace(namespace).withName(name).get();
      edit.accept(rc);
      client.resource(rc).update();
      return true;
    });
  }
}
