package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmReason;
import dev.srt.operator.host.RunRef;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A host action's reason stays with it while it runs and until its outcome is acted on. */
class HostActionsTest {
  static final ResourceID OWNER = new ResourceID("cmp", "ns");
  static final RunRef RUN = new RunRef("ns", "cmp", "arm", "r00000001");
  static final CancelReason RERUN = new CancelReason(ArmReason.RerunRequested, "a rerun was requested");

  @Test
  void aCancelsReasonIsKeptUntilItsOutcomeIsForgotten() {
    List<Runnable> held = new ArrayList<>();
    List<ResourceID> woken = new ArrayList<>();
    try (HostActions actions = new HostActions(woken::add, Clock.systemUTC(), held::add)) {
      actions.request(OWNER, RUN, HostActions.Kind.CANCEL, RERUN, () -> null);
      HostActions.Snapshot running = actions.snapshot("ns", "cmp");
      assertThat(running.running(RUN, HostActions.Kind.CANCEL)).isTrue();
      assertThat(running.reason(RUN, HostActions.Kind.CANCEL)).isEqualTo(RERUN);
      assertThat(actions.snapshot("ns", "other").reason(RUN, HostActions.Kind.CANCEL)).as("another comparison's").isNull();

      actions.forget(RUN, HostActions.Kind.CANCEL);
      assertThat(actions.snapshot("ns", "cmp").reason(RUN, HostActions.Kind.CANCEL)).as("kept while it runs").isEqualTo(RERUN);

      held.forEach(Runnable::run);
      HostActions.Snapshot done = actions.snapshot("ns", "cmp");
      assertThat(done.outcome(RUN, HostActions.Kind.CANCEL).ok()).isTrue();
      assertThat(done.reason(RUN, HostActions.Kind.CANCEL)).isEqualTo(RERUN);
      assertThat(woken).containsExactly(OWNER);

      actions.forget(RUN, HostActions.Kind.CANCEL);
      assertThat(actions.snapshot("ns", "cmp").reason(RUN, HostActions.Kind.CANCEL)).isNull();

      actions.request(OWNER, RUN, HostActions.Kind.CANCEL, () -> null);
      assertThat(actions.snapshot("ns", "cmp").reason(RUN, HostActions.Kind.CANCEL)).as("asked without a reason").isNull();
    }
  }
}
