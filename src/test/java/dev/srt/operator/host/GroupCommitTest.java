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
    GroupCommit<Integer, String> commit = new GroupCommit<>("test", 100, 1, items -> {
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
  void upToParallelBatchesRunAtOnce() throws Exception {
    CountDownLatch bothInside = new CountDownLatch(2);
    java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
    GroupCommit<Integer, String> commit = new GroupCommit<>("test", 1, 2, items -> {
      most.accumulateAndGet(inside.incrementAndGet(), Math::max);
      bothInside.countDown();
      try {
        bothInside.await(10, TimeUnit.SECONDS);
        Thread.sleep(20);
      } catch (InterruptedException e) {
        throw new HostException(HostException.Kind.IO, "interrupted");
      }
      inside.decrementAndGet();
      return Map.of(items.get(0), "ok " + items.get(0));
    });
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<String>> calls = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        int item = i;
        calls.add(pool.submit(() -> commit.call(item)));
      }
      for (int i = 0; i < 6; i++) {
        assertThat(calls.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("ok " + i);
      }
      assertThat(most.get()).isEqualTo(2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedBatchFailsEachOfItsCallsAndAnItemWithoutAnswerFailsAlone() throws Exception {
    GroupCommit<Integer, String> failing = new GroupCommit<>("test", 10, 1, items -> {
      throw new HostException(HostException.Kind.UNREACHABLE, "down");
    });
    assertThatThrownBy(() -> failing.call(1)).isInstanceOf(HostException.class).hasMessage("down");
    GroupCommit<Integer, String> silent = new GroupCommit<>("test", 10, 1, items -> Map.of());
    assertThatThrownBy(() -> silent.call(7)).isInstanceOfSatisfying(HostException.class,
        e -> assertThat(e.kind()).isEqualTo(HostException.Kind.COMMAND_FAILED)).hasMessageContaining("nothing for 7");
  }

}
