package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The etcd stand-in over its JSON gateway, on ephemeral ports. */
class EtcdIT {
  @TempDir Path tmp;
  private final EmulatedFleet fleet = new EmulatedFleet();
  private EtcdServer etcd;
  private String base;

  @BeforeEach
  void start() throws Exception {
    etcd = fleet.start(new EtcdServer(EtcdServer.Options.parse(List.of("--data-dir", tmp.resolve("etcd").toString(),
        "--listen-client-urls", "http://127.0.0.1:0", "--advertise-client-urls", "http://127.0.0.1:2379",
        "--listen-peer-urls", "http://127.0.0.1:0", "--initial-advertise-peer-urls", "http://127.0.0.1:2380",
        "--initial-cluster", "default=http://127.0.0.1:2380")), EmulatedFleet.QUIET));
    base = "http://127.0.0.1:" + etcd.clientPort();
  }

  @AfterEach
  void stop() {
    fleet.close();
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(JsonNode b64) {
    return new String(Base64.getDecoder().decode(b64.asText()), StandardCharsets.UTF_8);
  }

  private JsonNode call(String path, String json) {
    HttpTestClient.Reply r = post(base + path, json);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private List<String> prefix(String p) {
    JsonNode r = call("/v3/kv/range", "{\"key\":\"" + b64(p) + "\",\"range_end\":\"" + EtcdClient.rangeEnd(p) + "\"}");
    List<String> keys = new ArrayList<>();
    r.path("kvs").forEach(kv -> keys.add(text(kv.path("key")) + "=" + text(kv.path("value"))));
    return keys;
  }

  @Test
  void healthVersionDataDirAndPeerPort() throws Exception {
    HttpTestClient.Reply health = get(base + "/health");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.json().path("health").asText()).isEqualTo("true");
    assertThat(get(base + "/version").json().path("etcdserver").asText()).isEqualTo(EtcdServer.VERSION);
    assertThat(Files.readString(tmp.resolve("etcd/member/srt-emulated-etcd.json"))).contains("\"name\":\"default\"");
    try (Socket s = new Socket("127.0.0.1", etcd.peerPort())) {
      assertThat(s.isConnected()).isTrue();
    }
    assertThat(get("http://127.0.0.1:" + etcd.peerPort() + "/members").body()).contains("http://127.0.0.1:2379");
  }

  @Test
  void putRangeByPrefixAndDeleteRange() {
    call("/v3/kv/put", "{\"key\":\"" + b64("v1/instances/dynamo/backend/generate/1a") + "\",\"value\":\"" + b64("one") + "\"}");
    call("/v3/kv/put", "{\"key\":\"" + b64("v1/instances/dynamo/prefill/generate/2b") + "\",\"value\":\"" + b64("two") + "\"}");
    call("/v3/kv/put", "{\"key\":\"" + b64("v1/mdc/dynamo/backend/generate/1a") + "\",\"value\":\"" + b64("card") + "\"}");
    assertThat(prefix("v1/instances/")).containsExactly("v1/instances/dynamo/backend/generate/1a=one",
        "v1/instances/dynamo/prefill/generate/2b=two");

    JsonNode single = call("/v3/kv/range", "{\"key\":\"" + b64("v1/mdc/dynamo/backend/generate/1a") + "\"}");
    assertThat(single.path("count").asText()).isEqualTo("1");
    assertThat(single.path("kvs").get(0).path("version").asText()).isEqualTo("1");
    assertThat(single.path("header").path("revision").asText()).isEqualTo("4");
    assertThat(call("/v3/kv/range", "{\"key\":\"" + b64("absent") + "\"}").has("kvs")).isFalse();

    JsonNode all = call("/v3/kv/range", "{\"key\":\"AA==\",\"range_end\":\"AA==\",\"keys_only\":true}");
    assertThat(all.path("count").asText()).isEqualTo("3");
    assertThat(all.path("kvs").get(0).has("value")).isFalse();

    JsonNode del = call("/v3/kv/deleterange", "{\"key\":\"" + b64("v1/instances/") + "\",\"range_end\":\""
        + EtcdClient.rangeEnd("v1/instances/") + "\"}");
    assertThat(del.path("deleted").asText()).isEqualTo("2");
    assertThat(prefix("v1/instances/")).isEmpty();
    assertThat(prefix("v1/mdc/")).hasSize(1);
  }

  @Test
  void keysOnALeaseLiveWhileItIsKeptAliveAndGoWhenItExpiresOrIsRevoked() {
    String lease = call("/v3/lease/grant", "{\"TTL\":1}").path("ID").asText();
    call("/v3/kv/put", "{\"key\":\"" + b64("leased/a") + "\",\"value\":\"" + b64("x") + "\",\"lease\":\"" + lease + "\"}");
    // renewed every 200 ms, the 1 s lease outlives its TTL
    await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
        .until(() -> call("/v3/lease/keepalive", "{\"ID\":\"" + lease + "\"}").path("result").path("TTL").asText().equals("1")
            && prefix("leased/").size() == 1);
    await().atMost(Duration.ofSeconds(3)).until(() -> prefix("leased/").isEmpty());
    assertThat(call("/v3/lease/keepalive", "{\"ID\":\"" + lease + "\"}").path("result").path("TTL").asText()).isEqualTo("0");
    assertThat(call("/v3/lease/timetolive", "{\"ID\":\"" + lease + "\"}").path("TTL").asText()).isEqualTo("-1");

    String other = call("/v3/lease/grant", "{\"TTL\":60}").path("ID").asText();
    call("/v3/kv/put", "{\"key\":\"" + b64("leased/b") + "\",\"value\":\"" + b64("y") + "\",\"lease\":\"" + other + "\"}");
    JsonNode ttl = call("/v3/lease/timetolive", "{\"ID\":\"" + other + "\",\"keys\":true}");
    assertThat(ttl.path("grantedTTL").asText()).isEqualTo("60");
    assertThat(text(ttl.path("keys").get(0))).isEqualTo("leased/b");
    call("/v3/lease/revoke", "{\"ID\":\"" + other + "\"}");
    assertThat(prefix("leased/")).isEmpty();

    HttpTestClient.Reply again = post(base + "/v3/lease/revoke", "{\"ID\":\"" + other + "\"}");
    assertThat(again.status()).isEqualTo(404);
    assertThat(again.json().path("message").asText()).isEqualTo("etcdserver: requested lease not found");
    assertThat(post(base + "/v3/kv/put", "{\"key\":\"" + b64("k") + "\",\"lease\":\"12345\"}").status()).isEqualTo(404);
  }
}
