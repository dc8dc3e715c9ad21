package dev.srt.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 41, finding 5: spec.ssh.host and .user, and each proxyJump hop's, took control characters,
 * new lines, spaces, '@' and a leading '-'. A host is now a DNS host name (RFC 1123), an IPv4 or a
 * bracketless IPv6 address, a user a POSIX-style name of at most 32 characters; the Java validator
 * and the CRD's CEL rules refuse the same values, each naming the field path.
 */
class SshHostAndUserTest {
  private static CelRules gpuCluster;

  @BeforeAll
  static void load() {
    gpuCluster = new CelRules(CrdSchema.forKind(CrdSchema.all(), "GpuCluster").orElseThrow());
  }

  static final String BASE = """
      apiVersion: srt.dev/v1alpha1
      kind: GpuCluster
      metadata: {name: h100-box}
      spec:
        mode: direct
        transport: ssh
        workDir: /scratch/srt-operator
        ssh:
          host: gpu-01.example.internal
          user: bench
          privateKeySecretRef: {name: h100-box-ssh, key: id_ed25519}
          knownHostsSecretRef: {name: h100-box-ssh, key: known_hosts}
          proxyJump:
          - host: bastion.example.org
            user: jump
      """;

  /** The document with {@code field} (of spec.ssh, or of its proxyJump[0] when it starts with "jump.") set to {@code value}. */
  static JsonNode with(String field, String value) throws Exception {
    ObjectNode doc = (ObjectNode) Mappers.yaml().readTree(BASE);
    ObjectNode ssh = (ObjectNode) doc.path("spec").path("ssh");
    if (field.startsWith("jump.")) {
      ((ObjectNode) ssh.path("proxyJump").get(0)).put(field.substring("jump.".length()), value);
    } else {
      ssh.put(field, value);
    }
    return doc;
  }

  static List<String> javaErrors(JsonNode doc) throws Exception {
    LoadedResources loaded = LoadedResources.parse("cluster.yaml", Mappers.yaml().writeValueAsString(doc));
    List<String> errors = new java.util.ArrayList<>(loaded.problems().stream().filter(Problem::isError).map(Problem::describe).toList());
    loaded.clusters().forEach(c -> Validator.validate(c).stream().filter(Problem::isError).map(Problem::describe).forEach(errors::add));
    return errors.stream().distinct().toList();
  }

  static List<String> celFailures(JsonNode doc) {
    return gpuCluster.evaluate(doc).failures().stream().map(CelRules.Failure::describe).toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"gpu-01.example.internal", "login01", "Gateway-2.Example.ORG", "a", "x.y.z", "10.0.0.1", "192.0.2.255",
      "0.0.0.0", "::1", "fd00:10::2", "2001:db8:0:0:0:0:0:1", "2001:DB8::8:800:200C:417A", "::", "::ffff:192.0.2.1",
      "64:ff9b::192.0.2.33", "1:2:3:4:5:6:192.0.2.1", "fe80::1:2:3:4:5:6", "1::"})
  void hostsThatAreNamesOrAddressesAreAccepted(String host) throws Exception {
    for (String field : List.of("host", "jump.host")) {
      JsonNode doc = with(field, host);
      assertThat(javaErrors(doc)).as("%s: %s", field, host).isEmpty();
      assertThat(celFailures(doc)).as("%s: %s", field, host).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"-oProxyCommand=id", "-gpu01", "gpu01-", "gpu 01", "gpu01\nReachable: True", "gpu\u001b]0;x\u0007",
      "bench@gpu01", "gpu_01", "gpu..01", ".gpu01", "gpu01.", "[::1]", "fe80::1%eth0", "256.1.1.1", "1.2.3", "1.2.3.4.5",
      "1:2:3:4:5:6:7:8:9", "1::2::3", "gpu01;id", "gpu\u202e01", "gpu01:22", "12345",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.example.org"})
  void otherHostsAreRefusedWithTheirFieldPath(String host) throws Exception {
    for (String field : List.of("host", "jump.host")) {
      String path = field.equals("host") ? "spec.ssh.host" : "spec.ssh.proxyJump[0].host";
      JsonNode doc = with(field, host);
      assertThat(javaErrors(doc)).as("%s: %s", field, host).singleElement().asString()
          .startsWith(path + ": must be a DNS host name (RFC 1123")
          .doesNotContain("\n", "\u001b", "\u0007", "\u202e");
      assertThat(celFailures(doc)).as("%s: %s", field, host).containsExactly(path + ": " + SshNames.HOST_MESSAGE);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"bench", "_svc", "bench.user-01_x", "jump$", "a", "u23456789012345678901234567890ab", "u234567890123456789012345678901$"})
  void usersThatAreUserNamesAreAccepted(String user) throws Exception {
    for (String field : List.of("user", "jump.user")) {
      JsonNode doc = with(field, user);
      assertThat(javaErrors(doc)).as("%s: %s", field, user).isEmpty();
      assertThat(celFailures(doc)).as("%s: %s", field, user).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"-l", "-oProxyCommand=id", "bench@other", "be nch", "bench\nx", "bench\u001b[2J", "Bench", "1bench",
      ".bench", "bench$x", "bench$$", "u23456789012345678901234567890abc", "root;id", "bench:x", "ben\u202ech"})
  void otherUsersAreRefusedWithTheirFieldPath(String user) throws Exception {
    for (String field : List.of("user", "jump.user")) {
      String path = field.equals("user") ? "spec.ssh.user" : "spec.ssh.proxyJump[0].user";
      JsonNode doc = with(field, user);
      assertThat(javaErrors(doc)).as("%s: %s", field, user).singleElement().asString()
          .startsWith(path + ": must be a user name")
          .doesNotContain("\n", "\u001b", "\u202e");
      assertThat(celFailures(doc)).as("%s: %s", field, user).containsExactly(path + ": " + SshNames.USER_MESSAGE);
    }
  }
}
