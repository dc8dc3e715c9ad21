package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.FrontendType;
import dev.srt.operator.api.Vocabulary;
import dev.srt.operator.config.FrontendRules.Capability;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The router kinds the CRD admits (api.FrontendType) are exactly those a class implements (the
 * registry), and the CRD's rules name, for each capability, the kinds that declare it.
 */
class RouterKindsTest {
  @Test
  void theCrdsEnumAndTheRegistryNameTheSameKindsInTheSameOrder() {
    assertThat(FrontendRules.all().keySet()).containsExactlyElementsOf(Vocabulary.values(FrontendType.class));
  }

  @Test
  void eachCelListOfTheCrdNamesTheKindsThatDeclareItsCapability() {
    Map<Capability, String> cel = Map.of(Capability.PREFILL_DECODE, FrontendType.CEL_PREFILL_DECODE,
        Capability.POLICY_CATALOG, FrontendType.CEL_POLICY_CATALOG, Capability.SIDECARS, FrontendType.CEL_SIDECARS,
        Capability.ROUTER_BUILD, FrontendType.CEL_ROUTER_BUILD);
    cel.forEach((capability, list) -> assertThat(list).as("FrontendType's CEL list for %s", capability)
        .isEqualTo(FrontendRules.kindsWith(capability).stream().map(k -> "'" + k + "'").collect(Collectors.joining(",", "[", "]"))));
  }

  @Test
  void everyKindsManagedFlagsAreFlagsOfItsRouter() {
    for (FrontendRules kind : FrontendRules.all().values()) {
      assertThat(kind.managedArgs()).as(kind.type()).isNotEmpty().allSatisfy(flag ->
          assertThat(FlagVocabulary.match(kind.flagList(), "--" + flag).kind()).as("%s --%s", kind.type(), flag)
              .isEqualTo(FlagVocabulary.Match.Kind.EXACT));
    }
  }

  @Test
  void everyKindNamesTheProgramThatRunsItsRouter() {
    FrontendRules.all().values().forEach(kind -> assertThat(kind.routerProgram().name()).as(kind.type()).isNotBlank());
  }
}
