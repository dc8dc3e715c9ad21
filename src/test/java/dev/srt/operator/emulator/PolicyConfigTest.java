package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyConfigTest {
  @TempDir Path tmp;

  private Path yaml(String text) throws Exception {
    Path f = tmp.resolve("worker-selection.yaml");
    Files.writeString(f, text);
    return f;
  }

  private static List<String> linkedWith(String type) {
    List<String> types = new ArrayList<>(DynamoInstall.BUILTIN_POLICY_TYPES);
    types.add(type);
    return types;
  }

  @Test
  void theCatalogYamlSelectsTheSglRouterRuleForAggregatedWorkers() throws Exception {
    PolicyConfig c = PolicyConfig.load(yaml(FakeCheckouts.SGL_ROUTER_CACHE_AWARE_YAML), Map.of(), linkedWith("sgl-router-cache-aware"));
    assertThat(c.type()).isEqualTo("sgl-router-cache-aware");
    RoutingPolicy.TwoTierCacheAware p = (RoutingPolicy.TwoTierCacheAware) c.policy();
    assertThat(List.of(p.cacheThreshold(), (double) p.balanceAbs(), p.balanceRel())).containsExactly(0.5, 32.0, 1.1);
  }

  @Test
  void eachStageTakesItsOwnInstanceAndFallsBackToDefault() throws Exception {
    Path f = yaml("""
        worker_selection:
          default: rr
          prefill: two-tier
          instances:
            - name: two-tier
              type: dynamo-two-tier-cost-fn
            - name: rr
              type: dynamo-round-robin
        """);
    assertThat(PolicyConfig.load(f, Map.of(), DynamoInstall.BUILTIN_POLICY_TYPES, "prefill").type()).isEqualTo("dynamo-two-tier-cost-fn");
    assertThat(PolicyConfig.load(f, Map.of(), DynamoInstall.BUILTIN_POLICY_TYPES, "decode").type()).isEqualTo("dynamo-round-robin");
    assertThat(PolicyConfig.load(f, Map.of(), DynamoInstall.BUILTIN_POLICY_TYPES).type()).isEqualTo("dynamo-round-robin");
  }

  @Test
  void aTypeTheWheelDoesNotLinkFailsStartUpListingTheLinkedTypes() {
    assertThatThrownBy(() -> PolicyConfig.load(yaml(FakeCheckouts.SGL_ROUTER_CACHE_AWARE_YAML), Map.of(), DynamoInstall.BUILTIN_POLICY_TYPES))
        .hasMessage("unknown worker selection policy type 'sgl-router-cache-aware'; linked types: " + DynamoInstall.BUILTIN_POLICY_TYPES);
  }

  @Test
  void twoTierTakesItsParametersAndRejectsUnknownOnes() throws Exception {
    PolicyConfig c = PolicyConfig.load(yaml("""
        worker_selection:
          aggregated: sgl-port
          instances:
            - name: sgl-port
              type: dynamo-two-tier-cost-fn
              parameters: {cache_threshold: 0.7, balance_abs_threshold: 8, balance_rel_threshold: 1.5}
        """), Map.of(), DynamoInstall.BUILTIN_POLICY_TYPES);
    RoutingPolicy.TwoTierCacheAware p = (RoutingPolicy.TwoTierCacheAware) c.policy();
    assertThat(List.of(p.cacheThreshold(), (double) p.balanceAbs(), p.balanceRel())).containsExactly(0.7, 8.0, 1.5);
    assertThatThrownBy(() -> PolicyConfig.load(yaml("""
        worker_selection:
          default: x
          instances: [{name: x, type: dynamo-two-tier-cost-fn, parameters: {cache_treshold: 0.7}}]
        """), Map.of(), DynamoInstall.BUILTIN_POLICY_TYPES)).hasMessageContaining("unknown parameter 'cache_treshold'");
  }

  @Test
  void theEnvironmentCanSelectTheBuiltInSelector() throws Exception {
    PolicyConfig c = PolicyConfig.load(yaml(FakeCheckouts.SGL_ROUTER_CACHE_AWARE_YAML),
        Map.of("DYN_ROUTER_WORKER_SELECTION_POLICY", "default"), linkedWith("sgl-router-cache-aware"));
    assertThat(c.builtIn()).isTrue();
  }
}
