package dev.srt.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.EndpointStatus;
import dev.srt.operator.api.Mode;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.RunPlan;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An arm's status over a prefill/decode topology: each endpoint with its role, and ready counts per role. */
class DisaggregatedStatusTest {
  static final Instant T0 = Instant.parse("2026-12-02T03:00:00Z");

  private static RunEvent endpointReady(String name, String url) {
    var fields = JsonNodeFactory.instance.objectNode().put("event", "endpoint-ready").put("name", name).put("role", "worker").put("url", url);
    return new RunEvent(T0.plusSeconds(5), "endpoint-ready", fields);
  }

  @Test
  void statusCountsPrefillAndDecodeWorkersApart() {
    RunPlan plan = Examples.plan(Examples.DISAGG, "dynamo-kv", Mode.DIRECT);
    RunRecord record = Replays.record(plan, T0);
    ArmStatus s = RunTracker.submitted(record);
    assertThat(s.endpoints).extracting(e -> e.name, e -> e.role, e -> e.port)
        .containsExactly(tuple("worker-prefill-0", "prefill", 6100), tuple("worker-decode-0", "decode", 6132));
    assertThat(s.workers.summary()).isEqualTo("prefill 0/1, decode 0/1");

    RunEvent prefill = endpointReady("worker-prefill-0", "http://127.0.0.1:6100/health");
    s = Replays.replay(record, List.of(prefill), null, T0.plusSeconds(6));
    assertThat(s.workers.ready).isEqualTo(1);
    assertThat(s.workers.total).isEqualTo(2);
    assertThat(s.workers.summary()).isEqualTo("prefill 1/1, decode 0/1");

    s = Replays.replay(record, List.of(prefill, endpointReady("worker-decode-0", "http://127.0.0.1:6132/health")), null, T0.plusSeconds(7));
    assertThat(s.workers.summary()).isEqualTo("prefill 1/1, decode 1/1");
    assertThat(s.endpoints).filteredOn(e -> e.ready).extracting(e -> e.url).containsExactly("http://127.0.0.1:6100", "http://127.0.0.1:6132");
  }

  @Test
  void theRoleSurvivesTheRecordKeptInStatusAndAggregatedArmsHaveNone() {
    RunPlan plan = Examples.plan(Examples.DISAGG, "dynamo-kv", Mode.SLURM);
    ArmStatus s = RunTracker.submitted(Replays.record(plan, T0));
    assertThat(RunRecord.of(s).workers()).extracting(RunRecord.Worker::role).containsExactly("prefill", "decode");

    ArmStatus agg = RunTracker.submitted(Replays.record(Examples.plan("dynamo-kv", Mode.DIRECT), T0));
    assertThat(agg.endpoints).extracting((EndpointStatus e) -> e.role).containsOnlyNulls();
    assertThat(agg.workers.prefill).isNull();
    assertThat(agg.workers.summary()).isEqualTo("0/2");
  }
}
