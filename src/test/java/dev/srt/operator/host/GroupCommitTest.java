package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GroupCommitTest {
  @Test
  void callsThatArriveDuringABatchShareTheNextOneAndEachGetsItsOwnAnswer() throws Exception {
    CountDownLatch firstBatchRuns = new CountDownLatch(1);
    CountDownLatch othersQueued = new CountDownLatch(1);
    List<List<Integer>> batches = new ArrayList<>();
    GroupCommit<Integer, String> commit = new GroupCommit<>("test", 100, items -> {
      synchronized (batches) {
        batches.add(items);
      }
      firstBatchRuns.countDown();
      try {
        othersQueued.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        throw new HostException(HostException.Kind.IO, "interrupted");
      }
      Map<Integer, String> answers = new HashMap<>();
      items.forEach(i -> answers.put(i, "answer " + i));
      return answers;
    });
    ExecutorService pool = Executors.newFixedThreadPool(21);
    try {
      Future<String> first = pool.submit(() -> commit.call(0));
      firstBatchRuns.await(10, TimeUnit.SECONDS);
      List<Future<String>> rest = new ArrayList<>();
      for (int i = 1; i <= 20; i++) {
        int item = i;
        rest.add(pool.submit(() -> commit.call(item)));
      }
      // The 20 wait behind the running batch (each parks in wait(), none runs a batch of its own).
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> commit.waiting() == 20);
      othersQueued.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
      for (int i = 1; i <= 20; i++) {
        assertThat(rest.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo("answer " + i);
      }
      assertThat(batches).hasSize(2);
      assertThat(batches.get(1)).hasSize(20);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedBatchFailsEachOfItsCallsAndAnItemWithoutAnswerFailsAlone() throws Exception {
    GroupCommit<Integer, String> failing = new GroupCommit<>("test", 10, items -> {
      throw new HostException(HostException.Kind.UNREACHABLE, "down");
    });
    assertThatThrownBy(() -> failing.call(1)).isInstanceOf(HostException.class).hasMessage("down");
    GroupCommit<Integer, String> silent = new GroupCommit<>("test", 10, items -> Map.of());
    assertThatThrownBy(() -> silent.call(7)).isInstanceOfSatisfying(HostException.class,
        e -> assertThat(e.kind()).isEqualTo(HostException.Kind.COMMAND_FAILED)).hasMessageContaining("nothing for 7");
  }

}
