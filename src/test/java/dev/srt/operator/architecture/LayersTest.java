package dev.srt.operator.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows of docs/architecture.md, enforced: each layer imports only the layers above it, and
 * only the edges ({@code cli}, {@code emulator}) are free to import the rest.
 */
class LayersTest {
  static final String ROOT = "dev.srt.operator.";
  static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.srt.operator");
  }

  static String[] packages(String... names) {
    String[] out = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      out[i] = ROOT + names[i] + "..";
    }
    return out;
  }

  void layer(String layer, String... forbidden) {
    noClasses().that().resideInAPackage(ROOT + layer + "..").should().dependOnClassesThat().resideInAnyPackage(packages(forbidden))
        .because(layer + " sits above " + String.join(", ", forbidden) + " (docs/architecture.md)").check(main);
  }

  @Test
  void baseImportsNothingOfTheProject() {
    layer("base", "api", "config", "plan", "render", "host", "run", "reconcile", "cli", "emulator");
  }

  @Test
  void apiImportsNothingOfTheProject() {
    layer("api", "base", "config", "plan", "render", "host", "run", "reconcile", "cli", "emulator");
  }

  @Test
  void configImportsOnlyTheApi() {
    layer("config", "plan", "render", "host", "run", "reconcile", "cli", "emulator");
  }

  @Test
  void planIsPure() {
    layer("plan", "render", "host", "run", "reconcile", "cli", "emulator");
  }

  @Test
  void renderKnowsOnlyThePlan() {
    layer("render", "host", "run", "reconcile", "cli", "emulator");
  }

  @Test
  void hostKnowsNothingOfKubernetesOrTheCli() {
    layer("host", "run", "reconcile", "cli", "emulator");
  }

  @Test
  void theRunLifecycleIsSharedByTheCliAndTheOperatorAndKnowsNeither() {
    layer("run", "reconcile", "cli", "emulator");
  }

  @Test
  void reconcileKnowsNothingOfTheEdges() {
    layer("reconcile", "cli", "emulator");
  }

  @Test
  void verdictsAreStatisticsOnTheApiAlone() {
    layer("verdict", "config", "plan", "render", "host", "run", "reconcile", "cli", "emulator");
  }

  @Test
  void reportsAreDrawnFromTheSpecThePlanAndTheVerdictsAlone() {
    layer("report", "render", "host", "run", "reconcile", "cli", "emulator");
  }

  @Test
  void theImporterMapsRecipesOntoTheApiAlone() {
    layer("importer", "plan", "render", "host", "run", "reconcile", "verdict", "report", "cli", "emulator");
  }

  @Test
  void onlyTheCliImportsRecipes() {
    noClasses().that().resideOutsideOfPackages(ROOT + "cli..", ROOT + "importer..").should().dependOnClassesThat()
        .resideInAPackage(ROOT + "importer..").because("import is a CLI verb (docs/architecture.md)").check(main);
  }

  @Test
  void theEmulatorIsAnEdgeOfItsOwn() {
    layer("emulator", "cli", "run", "reconcile");
  }
}
