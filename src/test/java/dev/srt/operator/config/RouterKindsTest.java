package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.FrontendType;
import dev.srt.operator.api.Vocabulary;
import org.junit.jupiter.api.Test;

/** The router kinds the CRD admits (api.FrontendType) are exactly those a class implements (the registry). */
class RouterKindsTest {
  @Test
  void theCrdsEnumAndTheRegistryNameTheSameKindsInTheSameOrder() {
    assertThat(FrontendRules.all().keySet()).containsExactlyElementsOf(Vocabulary.values(FrontendType.class));
  }
}
