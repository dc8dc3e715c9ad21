package dev.srt.operator.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes core/v1 Events with typed reasons. The event name is derived from the object, reason and
 * subject, so a repeat bumps {@code count} instead of adding an event. Callers emit only on
 * transitions (old status vs new), so events do not repeat on every reconcile.
 */
public class EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);

  private final KubernetesClient client;

  public EventRecorder(KubernetesClient client) {
    this.client = client;
  }

  public void record(HasMetadata object, EventReason reason, String subject, String message) {
    String ns = object.getMetadata().getNamespace();
    String name = (object.getMetadata().getName() + "." + reason.name().toLowerCase() + (subject == null ? "" : "." + subject))
        .replaceAll("[^a-z0-9.-]", "-");
    if (name.length() > 253) {
      name = name.substring(0, 253);
    }
    String now = Instant.now().toString();
    try {
      Event existing = client.v1().events().inNamespace(ns).withName(name).get();
      if (existing != null) {
        existing.setCount(existing.getCount() == null ? 2 : existing.getCount() + 1);
        existing.setLastTimestamp(now);
        existing.setMessage(message);
        client.v1().events().inNamespace(ns).resource(existing).update();
        return;
      }
      client.v1().events().inNamespace(ns).resource(new EventBuilder()
          .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
          .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion(object.getApiVersion()).withKind(object.getKind())
              .withName(object.getMetadata().getName()).withNamespace(ns).withUid(object.getMetadata().getUid()).build())
          .withReason(reason.name()).withType(reason.type()).withMessage(message)
          .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
          .withNewSource().withComponent("srt-operator").endSource()
          .build()).create();
    } catch (KubernetesClientException e) {
      // Events are best effort: never let one stop a reconcile.
      LOG.warn("{} {}/{}: cannot record event {}: {}", object.getKind(), ns, object.getMetadata().getName(), reason, e.getMessage());
    }
  }
}
