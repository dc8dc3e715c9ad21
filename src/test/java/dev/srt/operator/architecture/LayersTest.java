package dev.srt.operator.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows of docs/architecture.md, enforced: each layer imports only the layers its allow-list
 * names, no two packages import each other, and only the cli is free to import the rest.
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

  /** Every package of the project, top (imports nothing) to bottom. */
  static final List<String> PACKAGES = List.of("base", "api", "config", "plan", "render", "verdict", "results", "host", "report",
      "run", "importer", "reconcile", "emulator", "cli");

  /** {@code layer} imports no package of the project but {@code allowed}: an allow-list, so a new package is refused until placed. */
  void mayImport(String layer, String... allowed) {
    List<String> forbidden = PACKAGES.stream().filter(p -> !p.equals(layer) && !List.of(allowed).contains(p)).toList();
    noClasses().that().resideInAPackage(ROOT + layer + "..").should().dependOnClassesThat()
        .resideInAnyPackage(packages(forbidden.toArray(String[]::new)))
        .because(layer + " imports only " + (allowed.length == 0 ? "nothing of the project" : String.join(", ", allowed))
            + " (docs/architecture.md)").check(main);
  }

  @Test
  void baseImportsNothingOfTheProject() {
    mayImport("base");
  }

  @Test
  void apiImportsNothingOfTheProject() {
    mayImport("api");
  }

  @Test
  void configImportsOnlyTheApi() {
    mayImport("config", "base", "api");
  }

  @Test
  void planIsPure() {
    mayImport("plan", "base", "api", "config");
  }

  @Test
  void renderKnowsOnlyThePlan() {
    mayImport("render", "base", "api", "config", "plan");
  }

  @Test
  void hostKnowsNothingOfKubernetesOrTheCli() {
    mayImport("host", "base", "api", "config", "plan", "render", "results");
  }

  @Test
  void theRunLifecycleIsSharedByTheCliAndTheOperatorAndKnowsNeither() {
    mayImport("run", "base", "api", "config", "plan", "render", "host", "results", "verdict");
  }

  @Test
  void reconcileKnowsNothingOfTheEdges() {
    mayImport("reconcile", "base", "api", "config", "plan", "host", "verdict", "run");
  }

  @Test
  void resultsKnowsOnlyWhatItParses() {
    mayImport("results", "base", "api", "verdict");
  }

  @Test
  void verdictsAreStatisticsOnTheApiAlone() {
    mayImport("verdict", "base", "api");
  }

  @Test
  void reportsAreDrawnFromTheSpecThePlanAndTheVerdictsAlone() {
    mayImport("report", "api", "config", "plan", "verdict");
  }

  @Test
  void theImporterMapsRecipesOntoTheApiAlone() {
    mayImport("importer", "base", "api", "config");
  }

  @Test
  void onlyTheCliImportsRecipes() {
    noClasses().that().resideOutsideOfPackages(ROOT + "cli..", ROOT + "importer..").should().dependOnClassesThat()
        .resideInAPackage(ROOT + "importer..").because("import is a CLI verb (docs/architecture.md)").check(main);
  }

  @Test
  void noTwoPackagesImportEachOther() {
    slices().matching(ROOT + "(*)..").should().beFreeOfCycles().because("the arrows of docs/architecture.md point one way").check(main);
  }

  @Test
  void theEmulatorIsAnEdgeOfItsOwn() {
    mayImport("emulator", "base", "host");
  }
}
