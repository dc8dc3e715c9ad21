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

  @Test
  void startingRunsArePolledAtTheStartingIntervalOrThePollIntervalIfShorter() {
    assertThat(PollCadence.next(SECOND, Duration.ofSeconds(5), true)).isEqualTo(SECOND);
    assertThat(PollCadence.next(SECOND, HALF, true)).isEqualTo(HALF);
    assertThat(PollCadence.next(SECOND, HALF, false)).isEqualTo(HALF);
    assertThat(PollCadence.next(SECOND, Duration.ofSeconds(5), false)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aRunningJobIsStartingUntilItsBenchmarkBeginsAQueuedOneIsNot() {
    assertThat(PollCadence.starting(seen(JobState.PENDING, false), List.of())).isFalse();
    assertThat(PollCadence.starting(seen(JobState.RUNNING, false), List.of())).isTrue();
    assertThat(PollCadence.starting(seen(JobState.RUNNING, false),
        List.of(event("{\"event\":\"phase\",\"phase\":\"starting\"}")))).isTrue();
    assertThat(PollCadence.starting(seen(JobState.RUNNING, false),
        List.of(event("{\"event\":\"phase\",\"phase\":\"benchmarking\"}")))).isFalse();
    assertThat(PollCadence.starting(seen(JobState.COMPLETED, false),
        List.of(event("{\"event\":\"finished\",\"status\":\"succeeded\",\"code\":\"0\"}")))).isFalse();
    // Events left to read are read at the fast cadence, whatever the job's state.
    assertThat(PollCadence.starting(seen(JobState.PENDING, true), List.of())).isTrue();
  }

  @Test
  void theObserverPollsAStartingRunAtAPollIntervalShorterThanTheStartingOne() {
    FakeHosts.State host = new FakeHosts.State();
    RunRef run = new RunRef("ns", "rc", "arm", "r1");
    host.jobStatus.put(run, JobStatus.of(JobState.RUNNING));
    try (RunObservations observations = new RunObservations(id -> { }, HOUR)) {
      observations.track(new ResourceID("rc", "ns"), "ns/box", new FakeHosts(host).forCluster(null), run, "1000", Duration.ofMillis(100));
      await().atMost(Duration.ofSeconds(5)).until(() -> host.pollCalls.get() >= 3);
    }
  }

  @Test
  void theObserverPollsAQueuedJobAtThePollIntervalNotTheStartingOne() {
    FakeHosts.State host = new FakeHosts.State();
    RunRef run = new RunRef("ns", "rc", "arm", "r1");
    host.jobStatus.put(run, JobStatus.of(JobState.PENDING));
    try (RunObservations observations = new RunObservations(id -> { }, Duration.ofMillis(100))) {
      observations.track(new ResourceID("rc", "ns"), "ns/box", new FakeHosts(host).forCluster(null), run, "1000", HOUR);
      await().atMost(Duration.ofSeconds(5)).until(() -> host.pollCalls.get() == 1);
      // Ten starting intervals without a second poll.
      await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> host.pollCalls.get() == 1);
    }
  }
}
