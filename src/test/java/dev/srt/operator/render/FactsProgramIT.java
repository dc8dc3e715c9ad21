package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.base.Shell;
import dev.srt.operator.host.DirectBackend;
import dev.srt.operator.host.LocalTransport;
import dev.srt.operator.host.ResultsFetch;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.plan.FactCapture;
import dev.srt.operator.plan.Hashes;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bash library's facts program as a rendered script runs it ({@code srt_facts_node},
 * {@code srt_facts} with the arguments {@link FactArguments} renders), against stand-ins: engines
 * that answer {@code /server_info}, only the older {@code /get_server_info}, or nothing; an
 * {@code nvidia-smi} or none; model files present and absent; package metadata found with the
 * run's own install in front. Whatever it cannot find out it records as unknown, with why, and the
 * script goes on.
 */
class FactsProgramIT {
  private static final RunRef RUN = new RunRef("default", "cmp", "arm", "r0000fac7");

  @TempDir Path work;
  private Path runDir;
  private Path bin;
  private HttpServer engines;

  @BeforeEach
  void setUp() throws Exception {
    runDir = Files.createDirectories(Path.of(RUN.runDir(work.toString())));
    bin = Files.createDirectories(work.resolve("bin"));
    engines = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    engines.createContext("/new/server_info", ex -> answer(ex, 200, "{\"tp_size\": 4, \"model_path\": \"/m\", \"random_seed\": 7, "
        + "\"kv_events_config\": null, \"internal_states\": [{\"last_gen_throughput\": 3.5}], \"version\": \"0.5.5\"}"));
    engines.createContext("/old/server_info", ex -> answer(ex, 404, "{\"detail\": \"Not Found\"}"));
    engines.createContext("/old/get_server_info", ex -> answer(ex, 200, "{\"tp_size\": 4, \"model_path\": \"/m\"}"));
    engines.start();
  }

  @AfterEach
  void stop() {
    engines.stop(0);
    dev.srt.operator.testinfra.Links.removeAll(work);
  }

  private static void answer(com.sun.net.httpserver.HttpExchange ex, int status, String body) throws java.io.IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
    ex.close();
  }

  private void executable(String name, String text) throws Exception {
    Path f = bin.resolve(name);
    Files.writeString(f, "#!/usr/bin/env bash\n" + text);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Distribution metadata as pip writes it, for importlib.metadata to find. */
  private static void distribution(Path site, String name, String version) throws Exception {
    Path info = Files.createDirectories(site.resolve(name + "-" + version + ".dist-info"));
    Files.writeString(info.resolve("METADATA"), "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n");
  }

  private FactCapture capture(String model) {
    String base = "http://127.0.0.1:" + engines.getAddress().getPort();
    return new FactCapture(
        List.of(new FactCapture.Engine("worker-0", 0, base + "/new/server_info", null),
            new FactCapture.Engine("worker-1", 0, base + "/old/server_info", null),
            new FactCapture.Engine("worker-2", 1, "http://127.0.0.1:9/server_info", null),
            new FactCapture.Engine("worker-3", 1, null, "the in-process Dynamo worker (dynamo.sglang) serves no SGLang HTTP API to ask")),
        2, List.of("fakeengine", "nosuchpackage"),
        new FactCapture.Router("sgl-router", bin.resolve("sgl router").toString(), List.of(work.resolve("wheels").toString()),
            List.of("ai-dynamo"), "python", "411b4648e7fd50c776f0c787f1abb2592eeef41b", null).withFiles(List.of(model + "/policy.yaml")),
        new FactCapture.Model(model, List.of(model + "/config.json", model + "/tokenizer.json"), "Qwen/Qwen3-32B-FP8"),
        new FactCapture.WorkloadFacts("bench-serving", "fakeengine", work.resolve("prompts.jsonl").toString(), 42,
            work.resolve("bench tokenizer").toString()), "7");
  }

  /** Runs the two steps a rendered script runs on node 0 (node 1's step is left out: it "failed"). */
  private Bash.Result facts(String path) throws Exception {
    Words words = new Words(false);
    String model = Files.createDirectories(work.resolve("model dir")).toString();
    Files.writeString(Path.of(model, "config.json"), "{\"architectures\": [\"Qwen3ForCausalLM\"]}");
    String script = "RUN_DIR=$PWD\nSRT_PYTHON=python3\nexport PATH=" + Shell.quote(path) + "\nexport PYTHONPATH="
        + Shell.quote(work.resolve("site").toString()) + "\n" + BashLibrary.text()
        + "\nmkdir -p logs\nsrt_facts_node 0 python3 -c \"$SRT_FACTS_PY\" node facts/node-0.json 0 fakeengine nosuchpackage"
        + "\nsrt_facts " + words.join(FactArguments.of(capture(model)))
        + "\necho script-went-on\n";
    return Bash.script(runDir, 60, script);
  }

  private RunFacts read() throws Exception {
    return ResultsFetch.read(new DirectBackend(new LocalTransport(), work.toString()), RUN).facts();
  }

  private static Map<String, String> byName(RunFacts f) {
    Map<String, String> m = new LinkedHashMap<>();
    f.facts.forEach(x -> m.put(x.name, x.value != null ? x.value : "unknown: " + x.unknown));
    return m;
  }

  @Test
  void everyFactIsFoundOutOrUnknownWithWhyAndTheRunGoesOn() throws Exception {
    executable("nvidia-smi", """
        case "${1-}" in
          --query-gpu=clocks.*) for i in 0 1; do echo "1980 MHz, 2619 MHz"; done; exit 0 ;;
          --query-gpu=power.limit) echo "700.00 W"; echo "650.00 W"; exit 0 ;;
          --query-gpu=persistence_mode|--query-gpu=ecc.mode.current) for i in 0 1; do echo "Enabled"; done; exit 0 ;;
          --query-gpu=mig.mode.current) for i in 0 1; do echo "[N/A]"; done; exit 0 ;;
        esac
        if [[ "${1-}" == --query-gpu=* ]]; then for i in 0 1; do echo "NVIDIA H100 80GB HBM3, 550.54.15"; done; exit 0; fi
        echo "| NVIDIA-SMI 550.54.15   Driver Version: 550.54.15   CUDA Version: 12.4 |"
        """);
    executable("sgl router", "echo 'sgl-router 0.2.4'\n");
    distribution(Files.createDirectories(work.resolve("site")), "fakeengine", "0.5.5");
    Files.createDirectories(work.resolve("site/torch"));
    Files.writeString(work.resolve("site/torch/__init__.py"), "class version:\n    cuda = '12.4'\n"
        + "class backends:\n    class cudnn:\n        version = staticmethod(lambda: 90100)\n");
    Files.createDirectories(work.resolve("bench tokenizer"));
    Files.writeString(work.resolve("bench tokenizer/tokenizer.json"), "{}");
    distribution(Files.createDirectories(runDir.resolve("python")), "ai-dynamo", "1.2.0");
    Files.createDirectories(work.resolve("wheels"));
    Files.writeString(work.resolve("wheels/ai_dynamo_runtime-1.2.0-cp310-abi3-linux_x86_64.whl"), "wheel bytes");
    Files.writeString(work.resolve("prompts.jsonl"), "{\"prompt\": \"hi\"}\n");

    Bash.Result r = facts(bin + ":/usr/bin:/bin");
    assertThat(r.code()).as(r.output()).isZero();
    assertThat(r.output()).contains("script-went-on", "facts: facts.json (");
    RunFacts f = read();
    Map<String, String> facts = byName(f);

    assertThat(f.unknown).isNull();
    assertThat(facts).containsEntry("node 0 GPU model", "NVIDIA H100 80GB HBM3").containsEntry("node 0 GPU count", "2")
        .containsEntry("node 0 GPU driver", "550.54.15").containsEntry("node 0 CUDA version", "12.4")
        .containsEntry("node 0 package nosuchpackage", "not installed")
        .containsEntry("engine worker-0 server_args.tp_size", "4").containsEntry("engine worker-0 server_args.kv_events_config", "null")
        .containsEntry("engine worker-0 server_args.version", "0.5.5")
        .containsEntry("engine worker-1 server_args.model_path", "/m")
        .containsEntry("router version", "sgl-router 0.2.4")
        .containsEntry("router wheel ai_dynamo_runtime-1.2.0-cp310-abi3-linux_x86_64.whl sha256", Hashes.sha256("wheel bytes"))
        .containsEntry("router package ai-dynamo", "1.2.0")
        .containsEntry("router policy catalog rev", "411b4648e7fd50c776f0c787f1abb2592eeef41b")
        .containsEntry("model tokenizer.json sha256", "absent")
        .containsEntry("model served name", "Qwen/Qwen3-32B-FP8")
        .containsEntry("workload seed", "42")
        // the ground the engines stand on: every GPU's clocks alike, the power limits not
        .containsEntry("node 0 GPU application clocks", "1980 MHz, 2619 MHz").containsEntry("node 0 GPU max clocks", "1980 MHz, 2619 MHz")
        .containsEntry("node 0 GPU power limit", "mixed: 650.00 W x1, 700.00 W x1").containsEntry("node 0 GPU persistence mode", "Enabled")
        .containsEntry("node 0 GPU ECC mode", "Enabled").containsEntry("node 0 GPU MIG mode", "[N/A]")
        .containsEntry("node 0 torch CUDA runtime", "12.4").containsEntry("node 0 torch cuDNN", "90100").containsEntry("node 0 torch NCCL", "none")
        .containsEntry("router file " + work.resolve("model dir") + "/policy.yaml sha256", "absent")
        // worker-0 reports the seed it was started with; worker-1 (an older server_info) and the unreachable worker-2 report none
        .containsEntry("engines random seed", "unknown: started with --random-seed 7, but worker-1 reports no seed, worker-2 reports no seed");
    assertThat(facts.get("node 0 Python")).matches("CPython 3\\.[0-9]+\\.[0-9]+");
    assertThat(facts.get("node 0 CPU model")).isNotBlank().doesNotStartWith("unknown");
    assertThat(facts.get("node 0 CPU governor")).isNotBlank().doesNotStartWith("unknown");
    assertThat(facts.get("workload tokenizer " + work.resolve("bench tokenizer") + " sha256")).matches("tree [0-9a-f]{64}");
    assertThat(facts.get("node 0 kernel")).isNotBlank();
    assertThat(facts.get("model config.json sha256")).matches("[0-9a-f]{64}");
    assertThat(facts.get("workload dataset sha256")).matches("[0-9a-f]{64}");
    assertThat(facts.get("router binary sha256")).matches("[0-9a-f]{64}");
    assertThat(facts).doesNotContainKey("engine worker-0 server_args.internal_states");
    assertThat(facts.get("engine worker-2 server_args")).startsWith("unknown: http://127.0.0.1:9/server_info: ");
    assertThat(facts.get("engine worker-3 server_args")).isEqualTo("unknown: the in-process Dynamo worker (dynamo.sglang) serves no SGLang HTTP API to ask");
    assertThat(facts.get("node 1 GPU driver")).startsWith("unknown: the facts step on node 1 wrote nothing usable");
    assertThat(facts.get("engine worker-2 node")).isEqualTo("node 1 (unknown host)");
    String event = Files.readAllLines(runDir.resolve("events.jsonl")).stream().filter(l -> l.contains("\"event\":\"facts\"")).findFirst().orElseThrow();
    assertThat(event).contains("\"file\":\"facts.json\"", "\"unknown\":" + f.unknownCount);
  }

  @Test
  void withoutNvidiaSmiTheGpuFactsAreUnknownAndWithoutPythonThereAreNoFactsYetTheScriptGoesOn() throws Exception {
    executable("sgl router", "exit 3\n");
    Bash.Result r = facts(bin + ":" + pythonOnly());
    assertThat(r.code()).as(r.output()).isZero();
    Map<String, String> facts = byName(read());
    assertThat(facts.get("node 0 GPU driver")).startsWith("unknown: nvidia-smi is not on the PATH on ");
    assertThat(facts.get("node 0 CUDA version")).startsWith("unknown: nvidia-smi is not on the PATH on ");
    assertThat(facts.get("router version")).startsWith("unknown: ").contains("exited with code 3");
    assertThat(facts.get("router wheel")).isEqualTo("unknown: no wheel at " + work.resolve("wheels"));
    assertThat(facts.get("workload dataset sha256")).isEqualTo("absent");
    assertThat(facts.get("node 0 GPU power limit")).startsWith("unknown: nvidia-smi is not on the PATH on ");
    assertThat(facts.get("node 0 torch CUDA runtime")).startsWith("unknown: ");

    Files.delete(runDir.resolve("facts.json"));
    Bash.Result none = Bash.script(runDir, 60, "RUN_DIR=$PWD\nSRT_PYTHON=/nonexistent/python3\n" + BashLibrary.text()
        + "\nmkdir -p logs\nsrt_facts --nodes=1\necho script-went-on\n");
    assertThat(none.code()).as(none.output()).isZero();
    assertThat(none.output()).contains("the collector failed", "script-went-on");
    assertThat(read().unknown).startsWith("the run wrote no facts.json");
  }

  /** A directory with python3 (and the coreutils the library uses) but no nvidia-smi. */
  private String pythonOnly() throws Exception {
    Path dir = Files.createDirectories(work.resolve("py"));
    for (String tool : List.of("python3", "bash", "mkdir", "timeout", "date", "tr")) {
      Path real = Path.of("/usr/bin", tool);
      if (Files.exists(real)) {
        Files.createSymbolicLink(dir.resolve(tool), real);
      }
    }
    return dir.toString();
  }
}
