package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import dev.srt.operator.run.RunMemory;
import dev.srt.operator.run.RunTracker;
import dev.srt.operator.run.RunView;
import dev.srt.operator.testinfra.TestRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The poll interval is honoured in every phase: starting arms never slower, queued jobs not faster. */
class PollCadenceTest {
  static final Duration SECOND = Duration.ofSeconds(1);
  static final Duration HALF = Duration.ofMillis(500);
  static final Duration HOUR = Duration.ofHours(1);

  static RunObservation seen(JobState state, boolean moreEventsPending) {
    return new RunObservation(JobStatus.of(state), List.of(), 0, moreEventsPending, false, 0);
  }

  static RunEvent event(String json) {
    try {
      JsonNode node = Mappers.json().readTree(json);
      return new RunEvent(Instant.now(), node.path("event").asText(), node);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static boolean starting(JobState state, boolean more, RunEvent... events) {
    RunObservation o = seen(state, more);
    RunTracker.Step step = RunTracker.step(TestRecords.of(new RunRef("ns", "rc", "arm", "r1"), "1000"),
        new RunView(List.of(events), !more, o.job(), null), RunMemory.FRESH, Instant.now());
    return PollCadence.starting(o, step);
  }

  @Test
  void startingRunsArePolledAtTheStartingIntervalOrThePollIntervalIfShorter() {
    assertThat(PollCadence.next(SECOND, Duration.ofSeconds(5), true)).isEqualTo(SECOND);
    assertThat(PollCadence.next(SECOND, HALF, true)).isEqualTo(HALF);
    assertThat(PollCadence.next(SECOND, HALF, false)).isEqualTo(HALF);
    assertThat(PollCadence.next(SECOND, Duration.ofSeconds(5), false)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aRunningJobIsStartingUntilItsBenchmarkBeginsAQueuedOneIsNot() {
    assertThat(starting(JobState.PENDING, false)).isFalse();
    assertThat(starting(JobState.RUNNING, false)).isTrue();
    assertThat(starting(JobState.RUNNING, false, event("{\"event\":\"phase\",\"phase\":\"starting\"}"))).isTrue();
    assertThat(starting(JobState.RUNNING, false, event("{\"event\":\"phase\",\"phase\":\"benchmarking\"}"))).isFalse();
    assertThat(starting(JobState.COMPLETED, false, event("{\"event\":\"phase\",\"phase\":\"benchmarking\"}"),
        event("{\"event\":\"finished\",\"status\":\"failed\",\"code\":\"1\"}"))).isFalse();
    // A run that finished well is polled fast until its results are read.
    assertThat(starting(JobState.COMPLETED, false, event("{\"event\":\"finished\",\"status\":\"succeeded\",\"code\":\"0\"}")))
        .isTrue();
    // Events left to read are read at the fast cadence, whatever the job's state.
    assertThat(starting(JobState.PENDING, true)).isTrue();
  }

  @Test
  void theObserverPollsAStartingRunAtAPollIntervalShorterThanTheStartingOne() {
    FakeHosts.State host = new FakeHosts.State();
    RunRef run = new RunRef("ns", "rc", "arm", "r1");
    host.jobStatus.put(run, JobStatus.of(JobState.RUNNING));
    try (RunObservations observations = new RunObservations(id -> { }, HOUR)) {
      observations.track(new ResourceID("rc", "ns"), "ns/box", new FakeHosts(host).forCluster(null), run, TestRecords.of(run, "1000"), Duration.ofMillis(100));
      await().atMost(Duration.ofSeconds(5)).until(() -> host.pollCalls.get() >= 3);
    }
  }

  @Test
  void theObserverPollsAQueuedJobAtThePollIntervalNotTheStartingOne() {
    FakeHosts.State host = new FakeHosts.State();
    RunRef run = new RunRef("ns", "rc", "arm", "r1");
    host.jobStatus.put(run, JobStatus.of(JobState.PENDING));
    try (RunObservations observations = new RunObservations(id -> { }, Duration.ofMillis(100))) {
      observations.track(new ResourceID("rc", "ns"), "ns/box", new FakeHosts(host).forCluster(null), run, TestRecords.of(run, "1000"), HOUR);
      await().atMost(Duration.ofSeconds(5)).until(() -> host.pollCalls.get() == 1);
      // Ten starting intervals without a second poll.
      await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> host.pollCalls.get() == 1);
    }
  }
}
