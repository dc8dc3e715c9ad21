package dev.srt.operator.host;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Builds a poll script's answer as the host prints it, for tests of the parser. */
final class PollAnswer {
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();

  /** A fact of run {@code index}. */
  PollAnswer fact(int index, String name, String value) {
    return fact(index, name, value.getBytes(StandardCharsets.UTF_8));
  }

  PollAnswer fact(int index, String name, byte[] value) {
    body.writeBytes(("F " + index + " " + name + " " + value.length + "\n").getBytes(StandardCharsets.US_ASCII));
    body.writeBytes(value);
    body.write('\n');
    return this;
  }

  /** The decoded body so far, without its end. */
  byte[] body() {
    return body.toByteArray();
  }

  /** The complete answer: the encoded body with its end marks. */
  String output() {
    return encoded(body() , true);
  }

  static String encoded(byte[] body, boolean closed) {
    byte[] all = body;
    if (closed) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes(body);
      out.writeBytes("E\n".getBytes(StandardCharsets.US_ASCII));
      all = out.toByteArray();
    }
    return PollScript.BODY + Base64.getEncoder().encodeToString(all) + "\n" + PollScript.END + "\n";
  }
}
