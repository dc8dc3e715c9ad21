package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.srt.operator.api.RouterComparison;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Events with the verbs the RBAC grants (create, and patch for a repeat), against the CRUD mock
 * API server, which records every request.
 */
class EventRecorderTest {
  static final String NS = "bench";

  MockApiServer api;
  RouterComparison rc;

  @BeforeEach
  void setUp() {
    api = new MockApiServer();
    rc = comparison("qwen3-32b-routers", "6f1c2a9e-0d4b-4c1e-9a57-3b2f1e0c9d88");
  }

  @AfterEach
  void tearDown() {
    api.close();
  }

  static RouterComparison comparison(String name, String uid) {
    RouterComparison rc = new RouterComparison();
    rc.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).withUid(uid).build());
    return rc;
  }

  List<Event> events() {
    return api.client.v1().events().inNamespace(NS).list().getItems();
  }

  /** The requests the API server received while {@code action} ran: "METHOD /path". */
  List<String> requestsDuring(Runnable action) throws InterruptedException {
    drain();
    action.run();
    return drain();
  }

  List<String> drain() throws InterruptedException {
    List<String> out = new ArrayList<>();
    for (RecordedRequest r = api.server.takeRequest(50, TimeUnit.MILLISECONDS); r != null;
        r = api.server.takeRequest(50, TimeUnit.MILLISECONDS)) {
      out.add(r.getMethod() + " " + r.getPath());
    }
    return out;
  }

  @Test
  void theFirstEventIsCreatedWithItsTypedReasonAndTheObjectItIsAbout() throws Exception {
    EventRecorder recorder = new EventRecorder(api.client);
    List<String> requests = requestsDuring(() -> recorder.record(rc, EventReason.Failed, "sgl-router", "arm sgl-router: failed: OOM"));
    assertThat(requests).singleElement().satisfies(r -> assertThat(r).startsWith("POST /api/v1/namespaces/bench/events"));

    Event e = events().get(0);
    assertThat(e.getReason()).isEqualTo("Failed");
    assertThat(e.getType()).isEqualTo("Warning");
    assertThat(e.getMessage()).isEqualTo("arm sgl-router: failed: OOM");
    assertThat(e.getCount()).isEqualTo(1);
    assertThat(e.getFirstTimestamp()).isEqualTo(e.getLastTimestamp()).isNotNull();
    assertThat(e.getSource().getComponent()).isEqualTo("srt-operator");
    assertThat(e.getInvolvedObject().getKind()).isEqualTo("RouterComparison");
    assertThat(e.getInvolvedObject().getName()).isEqualTo("qwen3-32b-routers");
    assertThat(e.getInvolvedObject().getUid()).isEqualTo(rc.getMetadata().getUid());
    assertThat(e.getMetadata().getName()).isEqualTo("qwen3-32b-routers.failed.sgl-router.6f1c2a9e");
  }

  @Test
  void aRepeatIsOnePatchThatCountsItNeverAReadOrUpdate() throws Exception {
    EventRecorder recorder = new EventRecorder(api.client);
    recorder.record(rc, EventReason.Submitted, "sgl-router", "arm sgl-router: run r1 submitted as job 1");
    List<String> requests = requestsDuring(() -> recorder.record(rc, EventReason.Submitted, "sgl-router",
        "arm sgl-router: run r2 submitted as job 2"));
    assertThat(requests).singleElement().isEqualTo("PATCH /api/v1/namespaces/bench/events/qwen3-32b-routers.submitted.sgl-router.6f1c2a9e");
    recorder.record(rc, EventReason.Submitted, "sgl-router", "arm sgl-router: run r3 submitted as job 3");

    assertThat(events()).singleElement().satisfies(e -> {
      assertThat(e.getCount()).isEqualTo(3);
      assertThat(e.getMessage()).isEqualTo("arm sgl-router: run r3 submitted as job 3");
      assertThat(e.getReason()).isEqualTo("Submitted");
      assertThat(e.getType()).isEqualTo("Normal");
    });
  }

  @Test
  void otherReasonsSubjectsAndObjectsAreEventsOfTheirOwn() {
    EventRecorder recorder = new EventRecorder(api.client);
    recorder.record(rc, EventReason.Submitted, "sgl-router", "a");
    recorder.record(rc, EventReason.Submitted, "dynamo-kv", "b");
    recorder.record(rc, EventReason.Succeeded, "sgl-router", "c");
    recorder.record(rc, EventReason.SpecInvalid, null, "d");
    // The comparison deleted and created again: kubectl describe finds events by uid.
    recorder.record(comparison("qwen3-32b-routers", "0b7e4d21-5a3c-4f0e-8d6b-9c1a2e3f4d5e"), EventReason.Submitted, "sgl-router", "e");
    assertThat(events()).hasSize(5).allSatisfy(e -> assertThat(e.getCount()).isEqualTo(1));
  }

  @Test
  void aRestartedOperatorCountsOnFromTheEventItFinds() {
    EventRecorder before = new EventRecorder(api.client);
    before.record(rc, EventReason.ClusterUnreachable, null, "connection refused");
    before.record(rc, EventReason.ClusterUnreachable, null, "connection refused");
    EventRecorder after = new EventRecorder(api.client);
    after.record(rc, EventReason.ClusterUnreachable, null, "timeout");
    after.record(rc, EventReason.ClusterUnreachable, null, "timeout again");
    assertThat(events()).singleElement().satisfies(e -> {
      assertThat(e.getCount()).isEqualTo(4);
      assertThat(e.getMessage()).isEqualTo("timeout again");
    });
  }

  @Test
  void anExpiredEventIsCreatedAgain() {
    EventRecorder recorder = new EventRecorder(api.client);
    recorder.record(rc, EventReason.Cancelled, "sgl-router", "first");
    recorder.record(rc, EventReason.Cancelled, "sgl-router", "second");
    // The API server drops events after their TTL (an hour by default).
    api.client.v1().events().inNamespace(NS).withName("qwen3-32b-routers.cancelled.sgl-router.6f1c2a9e").delete();
    recorder.record(rc, EventReason.Cancelled, "sgl-router", "third");
    assertThat(events()).singleElement().satisfies(e -> {
      assertThat(e.getCount()).isEqualTo(1);
      assertThat(e.getMessage()).isEqualTo("third");
    });
  }

  @Test
  void aForbiddenEventIsLoggedAndNeverThrown() {
    api.server.expect().post().withPath("/api/v1/namespaces/bench/events")
        .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").withMessage("events is forbidden").build()).always();
    EventRecorder recorder = new EventRecorder(api.client);
    assertThatCode(() -> {
      recorder.record(rc, EventReason.Failed, "sgl-router", "x");
      recorder.record(rc, EventReason.Failed, "sgl-router", "y");
    }).doesNotThrowAnyException();
    assertThat(events()).isEmpty();
  }

  @Test
  void namesAreValidForAnyComparisonAndArm() {
    String dnsSubdomain = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
    RouterComparison longName = comparison("c".repeat(253), "6f1c2a9e-0d4b");
    String name = EventRecorder.name(longName, EventReason.WorkersReady, "Arm_One.");
    assertThat(name).hasSizeLessThanOrEqualTo(253).matches(dnsSubdomain).endsWith(".6f1c2a9e");
    assertThat(EventRecorder.name(rc, EventReason.WorkersReady, "Arm_One.")).isEqualTo("qwen3-32b-routers.workersready.arm-one.6f1c2a9e")
        .matches(dnsSubdomain);
    assertThat(EventRecorder.name(comparison("a", null), EventReason.Failed, "--")).isEqualTo("a.failed.x").matches(dnsSubdomain);
  }
}
