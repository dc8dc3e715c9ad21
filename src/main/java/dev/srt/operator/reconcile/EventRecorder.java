package dev.srt.operator.reconcile;

import dev.srt.operator.config.Echo;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes core/v1 Events with typed reasons, using only the verbs its RBAC grants: {@code create}
 * and {@code patch} (never get, list or update). The event name is derived from the object (and
 * its uid), the reason and the subject, so a repeat bumps {@code count} and {@code lastTimestamp}
 * of the same Event with one merge patch, the way client-go's recorder aggregates. The count of
 * each event written is remembered in memory; after a restart the first repeat learns it from the
 * patch's answer. Callers emit only on transitions (old status vs new), so events do not repeat
 * on every reconcile. Failures are logged and never stop a reconcile.
 */
public class EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final String COMPONENT = "srt-operator";
  /** Event names whose count is remembered; older ones are re-learned from the API server. */
  private static final int REMEMBERED = 4096;
  private static final int MAX_NAME = 253;
  static final int MAX_MESSAGE = 1024;

  private final KubernetesClient client;
  private final Map<String, Integer> counts = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
      return size() > REMEMBERED;
    }
  });

  public EventRecorder(KubernetesClient client) {
    this.client = client;
  }

  public void record(HasMetadata object, EventReason reason, String subject, String text) {
    // kubectl shows an Event on one line; events.k8s.io caps a note at 1 KiB.
    String escaped = Echo.escape(text);
    String message = escaped != null && escaped.length() > MAX_MESSAGE ? escaped.substring(0, MAX_MESSAGE - 3) + "..." : escaped;
    String ns = object.getMetadata().getNamespace();
    String name = name(object, reason, subject);
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    String key = ns + "/" + name;
    try {
      Integer written = counts.get(key);
      int count = written == null ? createOrCountOn(object, reason, ns, name, now, message)
          : bumpOrCreate(object, reason, ns, name, written + 1, now, message);
      counts.put(key, count);
    } catch (KubernetesClientException e) {
      counts.remove(key);
      // Events are best effort: never let one stop a reconcile.
      LOG.warn("{} {}/{}: cannot record event {}: {}", object.getKind(), ns, object.getMetadata().getName(), reason, e.getMessage());
    }
  }

  /** First occurrence in this process: create it, or count on from an Event an earlier process wrote. */
  private int createOrCountOn(HasMetadata object, EventReason reason, String ns, String name, String now, String message) {
    try {
      create(object, reason, ns, name, now, message);
      return 1;
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
    Event existing = patch(ns, name, Map.of("lastTimestamp", now, "message", message));
    int count = (existing.getCount() == null ? 1 : existing.getCount()) + 1;
    patch(ns, name, Map.of("count", count));
    return count;
  }

  /** A repeat: one patch; the Event may have expired (the API server keeps them for an hour). */
  private int bumpOrCreate(HasMetadata object, EventReason reason, String ns, String name, int count, String now, String message) {
    try {
      patch(ns, name, Map.of("count", count, "lastTimestamp", now, "message", message));
      return count;
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw e;
      }
    }
    create(object, reason, ns, name, now, message);
    return 1;
  }

  private void create(HasMetadata object, EventReason reason, String ns, String name, String now, String message) {
    client.v1().events().inNamespace(ns).resource(new EventBuilder()
        .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
        .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion(object.getApiVersion()).withKind(object.getKind())
            .withName(object.getMetadata().getName()).withNamespace(ns).withUid(object.getMetadata().getUid()).build())
        .withReason(reason.name()).withType(reason.type()).withMessage(message)
        .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
        .withNewSource().withComponent(COMPONENT).endSource()
        .build()).create();
  }

  /** A JSON merge patch of the named Event; handing the client a stub keeps it from reading the Event first. */
  private Event patch(String ns, String name, Map<String, Object> fields) {
    Event stub = new EventBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata().build();
    return client.v1().events().inNamespace(ns).resource(stub)
        .patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(fields));
  }

  /**
   * {@code <object>.<reason>[.<subject>].<uid prefix>}, a valid DNS subdomain: one name per
   * incarnation of the object, so a comparison deleted and created again starts its own Events
   * (which {@code kubectl describe} finds by uid).
   */
  static String name(HasMetadata object, EventReason reason, String subject) {
    String uid = object.getMetadata().getUid();
    String suffix = uid == null || uid.isEmpty() ? "" : "." + label(uid.length() > 8 ? uid.substring(0, 8) : uid);
    String base = object.getMetadata().getName().toLowerCase(Locale.ROOT) + "." + reason.name().toLowerCase(Locale.ROOT)
        + (subject == null || subject.isEmpty() ? "" : "." + label(subject));
    if (base.length() + suffix.length() > MAX_NAME) {
      base = base.substring(0, MAX_NAME - suffix.length()).replaceAll("[^a-z0-9]+$", "");
    }
    return base + suffix;
  }

  /** One DNS label: lowercase letters, digits and inner dashes. */
  private static String label(String s) {
    String l = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
    return l.isEmpty() ? "x" : l;
  }
}
