package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * A router's static {@code --worker-urls} pool, as sgl-router and the Model Gateway keep it: each
 * worker is registered once its {@code /server_info} answers (polled, where the real routers
 * retry a few times and reconcile later: the same end state, sooner), its {@code /health} is
 * checked every second, and {@code /flush_cache} fans out to all of them.
 */
final class StaticWorkers implements AutoCloseable {
  private static final long REGISTER_RETRY_MS = 200;
  private static final long HEALTH_INTERVAL_MS = 1000;

  private final String program;
  private final HttpClient client;
  private final BiFunction<String, JsonNode, RoutedWorker> view;
  private final List<RoutedWorker> registered = new CopyOnWriteArrayList<>();
  private final Map<String, Boolean> healthy = new ConcurrentHashMap<>();
  private final ScheduledExecutorService background;

  /** {@code view} makes the router's view of a worker from its URL and {@code /server_info}. */
  StaticWorkers(String program, HttpClient client, BiFunction<String, JsonNode, RoutedWorker> view) {
    this.program = program;
    this.client = client;
    this.view = view;
    this.background = Executors.newScheduledThreadPool(2, r -> {
      Thread t = new Thread(r, program + "-workers");
      t.setDaemon(true);
      return t;
    });
  }

  void start(List<String> urls) {
    for (String url : urls) {
      background.execute(() -> register(url.replaceAll("/+$", "")));
    }
    background.scheduleWithFixedDelay(this::checkHealth, HEALTH_INTERVAL_MS, HEALTH_INTERVAL_MS, TimeUnit.MILLISECONDS);
  }

  List<RoutedWorker> registered() {
    return registered;
  }

  boolean healthy(RoutedWorker w) {
    return healthy.getOrDefault(w.url(), false);
  }

  /** The registered workers that passed their last health check. */
  List<RoutedWorker> healthyWorkers() {
    return registered.stream().filter(this::healthy).toList();
  }

  private void register(String url) {
    try {
      RoutedWorker w = view.apply(url, Json.parse(get(url + "/server_info").body()));
      healthy.put(url, true);
      registered.add(w);
      System.err.printf("%s (emulated): registered %s (model %s)%n", program, url, w.model());
    } catch (IOException | RuntimeException e) {
      background.schedule(() -> register(url), REGISTER_RETRY_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private HttpResponse<byte[]> get(String url) throws IOException, InterruptedException {
    HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IOException(url + " answered " + r.statusCode());
    }
    return r;
  }

  private void checkHealth() {
    for (RoutedWorker w : registered) {
      boolean ok;
      try {
        get(w.url() + "/health");
        ok = true;
      } catch (IOException e) {
        ok = false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      healthy.put(w.url(), ok);
    }
  }

  /** {@code POST /flush_cache} on every registered worker (forgetting the router's view too); the number that failed. */
  int flushCache() throws IOException {
    int failed = 0;
    for (RoutedWorker w : registered) {
      w.forgetCache();
      try {
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(w.url() + "/flush_cache"))
            .timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        failed += r.statusCode() == 200 ? 0 : 1;
      } catch (IOException e) {
        failed++;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
    return failed;
  }

  @Override
  public void close() {
    background.shutdownNow();
  }
}
