package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.QUIET;
import static dev.srt.operator.emulator.HttpTestClient.chat;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Arms 2/3 with etcd discovery: sidecars register under leases, the frontend finds them in etcd. */
class DynamoEtcdIT {
  @TempDir Path tmp;
  private final EmulatedFleet fleet = new EmulatedFleet();
  private EtcdClient etcd;
  private Map<String, String> env;

  @BeforeEach
  void startEtcd() throws Exception {
    EtcdServer server = fleet.start(new EtcdServer(EtcdServer.Options.parse(List.of("--data-dir", tmp.resolve("etcd").toString(),
        "--listen-client-urls", "http://127.0.0.1:0", "--advertise-client-urls", "http://127.0.0.1:2379",
        "--listen-peer-urls", "http://127.0.0.1:0")), QUIET));
    String url = "http://127.0.0.1:" + server.clientPort();
    etcd = new EtcdClient(List.of(url));
    // no DYN_DISCOVERY_BACKEND: ETCD_ENDPOINTS alone selects etcd, as in the seed's scripts
    env = Map.of("ETCD_ENDPOINTS", url, "DYN_FILE_KV", tmp.resolve("unused-file-store").toString());
  }

  @AfterEach
  void stop() {
    fleet.close();
  }

  private DynamoSidecar sidecar(SglangWorker engine) throws Exception {
    await().atMost(Duration.ofSeconds(5)).until(() -> engine.grpcPort() > 0);
    return fleet.start(new DynamoSidecar(DynamoSidecar.Options.parse(
        List.of("--grpc-endpoint", "127.0.0.1:" + engine.grpcPort()), env, QUIET), env, QUIET));
  }

  private List<Long> healthIds(String base) {
    List<Long> ids = new ArrayList<>();
    get(base + "/health").json().path("instances").forEach(i -> ids.add(i.path("instance_id").asLong()));
    return ids;
  }

  @Test
  void sidecarsRegisterUnderTheirLeasesAndTheFrontendFollowsEtcd() throws Exception {
    DynamoFrontend frontend = fleet.start(new DynamoFrontend(DynamoFrontend.Options.parse(
        List.of("--http-port", "0", "--router-mode", "kv"), env, QUIET), env, QUIET));
    String base = "http://127.0.0.1:" + frontend.port();
    assertThat(get(base + "/health").json().path("status").asText()).isEqualTo("unhealthy");

    SglangWorker e0 = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--grpc-port", "0");
    SglangWorker e1 = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--grpc-port", "0");
    DynamoSidecar s0 = sidecar(e0);
    DynamoSidecar s1 = sidecar(e1);
    await().atMost(Duration.ofSeconds(5)).until(() -> healthIds(base).size() == 2);

    List<EtcdClient.Entry> keys = etcd.prefix("v1/instances/");
    assertThat(keys).hasSize(2);
    for (EtcdClient.Entry e : keys) {
      // Dynamo's key layout, the instance id being the lease id in hex
      assertThat(e.key()).isEqualTo("v1/instances/dynamo/backend/generate/" + Long.toHexString(e.lease()));
      JsonNode value = Json.parse(e.value());
      assertThat(value.path("instance_id").asLong()).isEqualTo(e.lease());
      assertThat(value.path("model").asText()).isEqualTo(MODEL);
      assertThat(value.path("disaggregation_mode").asText()).isEqualTo("null");
    }
    assertThat(healthIds(base)).containsExactlyInAnyOrderElementsOf(keys.stream().map(EtcdClient.Entry::lease).toList());
    assertThat(Files.exists(tmp.resolve("unused-file-store"))).isFalse();
    assertThat(get(base + "/v1/models/Qwen%2FQwen3-32B-FP8/ready").json().path("ready").asBoolean()).isTrue();
    assertThat(post(base + "/v1/chat/completions", chat(MODEL, "Reply with one word: ready", 8, false)).json()
        .path("choices").get(0).path("message").path("content").asText()).isEqualTo("ready");

    s0.close();
    assertThat(s0.awaitExit()).isZero();
    await().atMost(Duration.ofSeconds(5)).until(() -> healthIds(base).size() == 1);
    assertThat(etcd.prefix("v1/instances/")).hasSize(1);

    // etcd dropping the lease (as when keep-alives stop) ends the sidecar, as Dynamo's runtime ends
    CompletableFuture<Integer> s1Exit = CompletableFuture.supplyAsync(() -> {
      try {
        return s1.awaitExit();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    etcd.revoke(etcd.prefix("v1/instances/").get(0).lease());
    await().atMost(Duration.ofSeconds(5)).until(() -> healthIds(base).isEmpty());
    assertThat(s1Exit.get(10, TimeUnit.SECONDS)).isEqualTo(1);
  }
}
