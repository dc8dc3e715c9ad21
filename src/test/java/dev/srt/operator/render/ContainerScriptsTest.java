package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.util.List;
import org.junit.jupiter.api.Test;

/** With a container runtime, build stages run in the image and only build stages and the router see the arm's inputs. */
class ContainerScriptsTest {
  private static final String CATALOG_FROM_GIT = """
              git: https://github.com/ishandhanani/router-sandbox
              rev: 411b4648e7fd50c776f0c787f1abb2592eeef41b
      """;

  private static RunPlan plan(String arm, String cluster) {
    String yaml = Examples.exampleYaml().replace(CATALOG_FROM_GIT, "        path: /src/router-sandbox\n") + "\n---\n" + cluster;
    LoadedResources r = Examples.parse(yaml);
    return Planner.plan(r.comparisons().get(0), r.clusters().get(0), arm, null);
  }

  private static final String PYXIS = """
      apiVersion: srt.dev/v1alpha1
      kind: GpuCluster
      metadata: {name: h100-box}
      spec:
        mode: slurm
        transport: local
        workDir: /scratch/srt
        container: {runtime: pyxis, image: "lmsysorg/sglang:dev", mounts: ["/data:/data"]}
      """;

  private static final String DOCKER = """
      apiVersion: srt.dev/v1alpha1
      kind: GpuCluster
      metadata: {name: h100-box}
      spec:
        mode: direct
        transport: local
        workDir: /scratch/srt
        env: {HF_HOME: /scratch/hf}
        container: {runtime: docker, image: "lmsysorg/sglang:dev"}
      """;

  private static List<String> lines(RunPlan plan, String prefix) {
    return Scripts.render(plan).lines().filter(l -> l.strip().startsWith(prefix)).toList();
  }

  @Test
  void pyxisRunsEachBuildStageAsOneRootStepInTheRunsContainer() {
    RunPlan plan = plan("dynamo-kv-policy", PYXIS);
    assertThat(Examples.exampleYaml()).contains(CATALOG_FROM_GIT);
    List<String> build = lines(plan, "srun --overlap --nodes=1 --ntasks=1 --relative=0 --job-name=build-dynamo-build ");
    assertThat(build).singleElement().satisfies(l -> assertThat(l)
        .contains("--container-image=lmsysorg/sglang:dev", "--container-name=srt-\"${SRT_RUN_ID}\"", "--container-remap-root",
            ",/src/router-sandbox:/src/router-sandbox", "/data:/data")
        .endsWith("bash --norc --noprofile -c \"$(srt_stage_source srt_stage_dynamo_build)\""));
    assertThat(Scripts.render(plan)).contains("srt_stage dynamo-build /scratch/srt/cache/dynamo/")
        .contains(" srt_stage_dynamo_build_in_container srt_stage_dynamo_build_stamp\n")
        .contains("srt_stage dynamo-install '' srt_stage_dynamo_install_in_container\n")
        // A local catalog's content decides, on the host, whether the cached build still counts.
        .contains("srt_stage_dynamo_build_stamp() {\n  srt_tree_digest /src/router-sandbox\n}\n");
    // Workers neither run as root nor see the catalog; the router sees it (it reads the published config).
    assertThat(lines(plan, "srt_start worker-")).hasSize(2).allSatisfy(l -> assertThat(l)
        .doesNotContain("--container-remap-root").doesNotContain("/src/router-sandbox"));
    assertThat(lines(plan, "srt_start router ")).singleElement().satisfies(l -> assertThat(l).contains("/src/router-sandbox:/src/router-sandbox"));
  }

  @Test
  void armsTwoAndThreeKeepIdenticalWorkerLinesInAContainer() {
    assertThat(lines(plan("dynamo-kv-policy", PYXIS), "srt_start worker-")).isEqualTo(lines(plan("dynamo-kv", PYXIS), "srt_start worker-"));
    assertThat(lines(plan("dynamo-kv-policy", DOCKER), "srt_start worker-")).isEqualTo(lines(plan("dynamo-kv", DOCKER), "srt_start worker-"));
  }

  @Test
  void dockerBuildsInAGpulessContainerAndPassesTheClusterEnvEverywhere() {
    RunPlan plan = plan("sgl-router", DOCKER);
    assertThat(plan.mode()).isEqualTo(Mode.DIRECT);
    List<String> build = lines(plan, "docker run --rm --name srt-\"${SRT_RUN_ID}\"-build-sgl-router-build ");
    assertThat(build).singleElement().satisfies(l -> assertThat(l).doesNotContain("--gpus")
        .contains("--volume /src/sglang/experimental/sgl-router:/src/sglang/experimental/sgl-router", "--env HF_HOME",
            "--env RUN_DIR=\"${RUN_DIR}\"", "lmsysorg/sglang:dev bash --norc --noprofile -c"));
    assertThat(lines(plan, "srt_start worker-")).hasSize(2).allSatisfy(l -> assertThat(l)
        .contains("--env HF_HOME").doesNotContain("/src/sglang/").doesNotContain("CUDA_VISIBLE_DEVICES"));
    // On exit, a non-root user gets back what the containers (root) wrote in the run and the build caches.
    String script = Scripts.render(plan);
    assertThat(script).contains("srt_after_run() {\n  [ \"$(id -u)\" -ne 0 ] || return 0\n"
        + "  timeout 120 docker run --rm --user 0 --entrypoint chown --volume \"${RUN_DIR}\":\"${RUN_DIR}\" --volume /scratch/srt:/scratch/srt");
    assertThat(lines(plan, "timeout 120 docker run")).singleElement().satisfies(l -> assertThat(l)
        .contains("lmsysorg/sglang:dev -R \"$(id -u):$(id -g)\" -- \"${RUN_DIR}\" /scratch/srt/cache/sgl-router/"));
    // pyxis maps the container's root to this user: nothing to give back.
    assertThat(Scripts.render(plan("sgl-router", PYXIS))).doesNotContain("srt_after_run()");
  }
}
