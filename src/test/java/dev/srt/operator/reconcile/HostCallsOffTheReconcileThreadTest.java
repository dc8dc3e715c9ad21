package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparison;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With the operator's own pool for host calls, a submit the host sits on holds no reconcile: the
 * reconcile that asks for it returns with the arm "submitting", and a later one applies the outcome.
 * (The timeout only keeps a regression from hanging the build; it measures nothing.)
 */
class HostCallsOffTheReconcileThreadTest {
  MockApiServer api;
  FakeHosts.State host;
  RouterComparisonReconciler reconciler;
  RouterComparison rc;

  @BeforeEach
  void setUp() {
    api = new MockApiServer();
    host = new FakeHosts.State();
    reconciler = ComparisonFixture.reconciler(api.client, host, true, Duration.ofMillis(200), null);
    rc = ComparisonFixture.comparison(api.client, "bench", ComparisonFixture.example(), ComparisonFixture.SLURM_LOCAL);
  }

  @AfterEach
  void tearDown() {
    if (host.submitGate != null) {
      host.submitGate.countDown();
    }
    reconciler.close();
    api.close();
  }

  ArmStatus first() {
    return rc.getStatus().arms.get(0);
  }

  @Test
  void aSubmitTheHostSitsOnHoldsNoReconcile() {
    host.submitGate = new CountDownLatch(1);
    reconciler.reconcile(rc, null); // chooses the run id
    String runId = first().runId;

    assertTimeoutPreemptively(Duration.ofMinutes(1), () -> reconciler.reconcile(rc, null));
    await().until(() -> host.submitCalls.get() == 1);
    assertTimeoutPreemptively(Duration.ofMinutes(1), () -> reconciler.reconcile(rc, null));
    assertThat(first().phase).isEqualTo("Pending");
    assertThat(first().message).isEqualTo("submitting run " + runId);
    assertThat(host.submitCalls.get()).as("asked once while it runs").isEqualTo(1);

    host.submitGate.countDown();
    await().until(() -> {
      reconciler.reconcile(rc, null);
      return "Submitted".equals(first().phase);
    });
    assertThat(first().runId).isEqualTo(runId);
    assertThat(first().jobId).isEqualTo(host.jobs.get(host.runOf(first().name)));
  }
}
