package dev.srt.operator.cli;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * SIGINT and SIGTERM handlers for the duration of a command, so Ctrl-C can cancel what the command
 * started before it exits. Uses {@code sun.misc.Signal} (module jdk.unsupported, present in every
 * JDK) through reflection; where it is missing, {@link #install} returns false and the caller falls
 * back to a shutdown hook. {@link #close()} puts the previous handlers back.
 */
final class Signals implements AutoCloseable {
  private record Installed(Object signal, Object previous) {}

  private final List<Installed> installed = new ArrayList<>();
  private Method handle;

  /**
   * Calls {@code onSignal} with the signal's name ({@code INT}, {@code TERM}) on a JVM thread
   * whenever one arrives.
   *
   * @return false when signal handlers cannot be installed in this JVM
   */
  boolean install(Consumer<String> onSignal) {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      handle = signalClass.getMethod("handle", signalClass, handlerClass);
      for (String name : List.of("INT", "TERM")) {
        Object signal = signalClass.getConstructor(String.class).newInstance(name);
        Object handler = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass},
            (proxy, method, args) -> switch (method.getName()) {
              case "handle" -> {
                onSignal.accept(name);
                yield null;
              }
              case "hashCode" -> System.identityHashCode(proxy);
              case "equals" -> proxy == args[0];
              case "toString" -> "srt-operator " + name + " handler";
              default -> null;
            });
        installed.add(new Installed(signal, handle.invoke(null, signal, handler)));
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      close();
      return false;
    }
  }

  @Override
  public void close() {
    for (Installed i : installed) {
      try {
        handle.invoke(null, i.signal(), i.previous());
      } catch (ReflectiveOperationException | RuntimeException e) {
        // the JVM is going away anyway
      }
    }
    installed.clear();
  }
}
