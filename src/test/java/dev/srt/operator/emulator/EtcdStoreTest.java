package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EtcdStoreTest {
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final EtcdStore store = new EtcdStore(now::get);

  private static java.util.List<String> keys(java.util.List<EtcdStore.KeyValue> kvs) {
    return kvs.stream().map(EtcdStore.KeyValue::key).toList();
  }

  @Test
  void putCountsVersionsAndRevisionsAndRangesFollowEtcdsRules() {
    assertThat(store.put("v1/instances/dynamo/backend/generate/a", "x", 0)).isNull();
    store.put("v1/instances/dynamo/backend/generate/b", "y", 0);
    store.put("v1/instances/other/backend/generate/c", "z", 0);
    store.put("v1/mdc/dynamo/backend/generate/a", "m", 0);
    EtcdStore.KeyValue prev = store.put("v1/instances/dynamo/backend/generate/a", "x2", 0);
    assertThat(prev.value()).isEqualTo("x");
    EtcdStore.KeyValue a = store.range("v1/instances/dynamo/backend/generate/a", null, 0).get(0);
    assertThat(a.version()).isEqualTo(2);
    assertThat(a.createRevision()).isEqualTo(2);
    assertThat(a.modRevision()).isEqualTo(6).isEqualTo(store.revision());

    assertThat(keys(store.range("v1/instances/dynamo/", "v1/instances/dynamo0", 0)))
        .containsExactly("v1/instances/dynamo/backend/generate/a", "v1/instances/dynamo/backend/generate/b");
    assertThat(keys(store.range("v1/instances/", "\0", 0))).hasSize(4);
    assertThat(keys(store.range("\0", "\0", 0))).hasSize(4);
    assertThat(store.range("v1/instances/", "v1/instances0", 1)).hasSize(1);
    assertThat(store.count("v1/instances/", "v1/instances0")).isEqualTo(3);
    assertThat(store.range("v1/nothing", null, 0)).isEmpty();

    assertThat(keys(store.deleteRange("v1/instances/dynamo/", "v1/instances/dynamo0"))).hasSize(2);
    assertThat(store.count("\0", "\0")).isEqualTo(2);
  }

  @Test
  void aLeaseThatIsNotRenewedTakesItsKeysWithIt() {
    EtcdStore.LeaseInfo lease = store.grant(10, 0);
    assertThat(lease.id()).isPositive();
    store.put("v1/instances/dynamo/backend/generate/1", "a", lease.id());
    store.put("v1/instances/dynamo/prefill/generate/2", "b", lease.id());
    store.put("kept", "c", 0);

    now.addAndGet(9_000);
    assertThat(store.keepAlive(lease.id()).ttl()).isEqualTo(10);
    now.addAndGet(9_000);
    assertThat(store.count("v1/", "v10")).isEqualTo(2);
    assertThat(store.timeToLive(lease.id()).keys()).hasSize(2);

    now.addAndGet(1_001);
    store.expire();
    assertThat(store.count("v1/", "v10")).isZero();
    assertThat(store.range("kept", null, 0)).hasSize(1);
    assertThat(store.keepAlive(lease.id()).ttl()).isZero();
    assertThat(store.timeToLive(lease.id()).ttl()).isEqualTo(-1);
  }

  @Test
  void revokeDeletesTheKeysAndUnknownLeasesAreRefused() {
    long id = store.grant(60, 42).id();
    assertThat(id).isEqualTo(42);
    store.put("k", "v", id);
    store.revoke(id);
    assertThat(store.range("k", null, 0)).isEmpty();
    assertThatThrownBy(() -> store.revoke(id)).isInstanceOf(EtcdStore.Refused.class)
        .hasMessage("etcdserver: requested lease not found");
    assertThatThrownBy(() -> store.put("k", "v", 7)).hasMessage("etcdserver: requested lease not found");
    assertThatThrownBy(() -> store.grant(0, 0)).hasMessageContaining("TTL");
  }

  @Test
  void movingAKeyToAnotherLeaseDetachesItFromTheFirst() {
    long first = store.grant(5, 0).id();
    long second = store.grant(60, 0).id();
    store.put("k", "v", first);
    store.put("k", "v2", second);
    now.addAndGet(6_000);
    store.expire();
    assertThat(store.range("k", null, 0)).extracting(EtcdStore.KeyValue::value).containsExactly("v2");
  }
}
