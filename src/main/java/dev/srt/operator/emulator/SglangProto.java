package dev.srt.operator.emulator;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The few messages of SGLang's native gRPC contract ({@code package sglang.runtime.v1}, service
 * {@code SglangService}) that the emulated engine reads and writes, in protobuf's wire format by
 * hand: field numbers from the copy Dynamo's sidecar is built with
 * ({@code ai-dynamo/dynamo lib/sidecar/sglang/proto/sglang.proto} @ 11c277fbcc10), whose RPC paths
 * the ai-dynamo-runtime 1.6.1 binary names ({@code /sglang.runtime.v1.SglangService/GetServerInfo}
 * ...). Unknown fields are skipped, as protobuf does.
 */
final class SglangProto {
  static final String SERVICE = "sglang.runtime.v1.SglangService";

  private SglangProto() {}

  /** Messages travel as raw bytes; each handler decodes and encodes its own. */
  static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new java.io.ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** {@code GenerateRequest}: the fields the engine acts on. */
  record GenerateRequest(int[] inputIds, Integer maxNewTokens, boolean ignoreEos, String rid,
      Disaggregated disaggregated) {}

  /** {@code DisaggregatedParams}. */
  record Disaggregated(String bootstrapHost, int bootstrapPort, long bootstrapRoom) {}

  static GenerateRequest generateRequest(byte[] bytes) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    List<Integer> ids = new ArrayList<>();
    Integer maxNew = null;
    boolean ignoreEos = false;
    String rid = null;
    Disaggregated dis = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag) {
        case (1 << 3) | WireFormat.WIRETYPE_VARINT -> ids.add(in.readInt32());
        case (1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
          int limit = in.pushLimit(in.readRawVarint32());
          while (in.getBytesUntilLimit() > 0) {
            ids.add(in.readInt32());
          }
          in.popLimit(limit);
        }
        case (2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
          CodedInputStream sp = CodedInputStream.newInstance(in.readByteArray());
          for (int t = sp.readTag(); t != 0; t = sp.readTag()) {
            if (t == ((8 << 3) | WireFormat.WIRETYPE_VARINT)) {
              maxNew = sp.readInt32();
            } else if (t == ((12 << 3) | WireFormat.WIRETYPE_VARINT)) {
              ignoreEos = sp.readBool();
            } else {
              sp.skipField(t);
            }
          }
        }
        case (7 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> rid = in.readString();
        case (13 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> dis = disaggregated(in.readByteArray());
        default -> in.skipField(tag);
      }
    }
    return new GenerateRequest(ids.stream().mapToInt(Integer::intValue).toArray(), maxNew, ignoreEos, rid, dis);
  }

  private static Disaggregated disaggregated(byte[] bytes) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    String host = "";
    int port = 0;
    long room = 0;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag >>> 3) {
        case 1 -> host = in.readString();
        case 2 -> port = in.readInt32();
        case 3 -> room = in.readInt64();
        default -> in.skipField(tag);
      }
    }
    return new Disaggregated(host, port, room);
  }

  /** {@code AbortRequest}: the request id, or every request. */
  record AbortRequest(String rid, boolean abortAll) {}

  static AbortRequest abortRequest(byte[] bytes) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    String rid = "";
    boolean all = false;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag >>> 3) {
        case 1 -> rid = in.readString();
        case 2 -> all = in.readBool();
        default -> in.skipField(tag);
      }
    }
    return new AbortRequest(rid, all);
  }

  /** {@code GenerateResponse}: new output ids (incremental), meta_info (JSON-valued strings), finished. */
  static byte[] generateResponse(int[] outputIds, Map<String, String> metaInfo, boolean finished) {
    return write(out -> {
      if (outputIds.length > 0) {
        int size = 0;
        for (int id : outputIds) {
          size += CodedOutputStream.computeInt32SizeNoTag(id);
        }
        out.writeTag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(size);
        for (int id : outputIds) {
          out.writeInt32NoTag(id);
        }
      }
      mapField(out, 2, metaInfo);
      if (finished) {
        out.writeBool(3, true);
      }
    });
  }

  /** A message whose field 1 is a bool: {@code HealthCheckResponse}, {@code AbortResponse}. */
  static byte[] boolField(boolean value) {
    return write(out -> {
      if (value) {
        out.writeBool(1, true);
      }
    });
  }

  /** {@code GetServerInfoResponse} (and {@code GetLoadResponse}): {@code json_info = 1}. */
  static byte[] jsonInfo(String json) {
    return write(out -> out.writeString(1, json));
  }

  /** {@code GetModelInfoResponse}: {@code model_path = 1}, {@code json_info = 2}. */
  static byte[] modelInfo(String modelPath, String json) {
    return write(out -> {
      out.writeString(1, modelPath);
      out.writeString(2, json);
    });
  }

  /** {@code ListModelsResponse} with one {@code ModelCard}: id, root, max_model_len. */
  static byte[] listModels(String id, int maxModelLen) {
    byte[] card = write(out -> {
      out.writeString(1, id);
      out.writeString(2, id);
      out.writeInt32(4, maxModelLen);
    });
    return write(out -> out.writeByteArray(1, card));
  }

  /** {@code EngineStateSnapshot}: healthy, {@code SERVER_STATUS_UP} or {@code STARTING}, and the server info. */
  static byte[] engineState(long revision, boolean healthy, String serverInfoJson) {
    byte[] info = jsonInfo(serverInfoJson);
    return write(out -> {
      out.writeUInt64(2, revision);
      out.writeBool(3, healthy);
      out.writeEnum(4, healthy ? 2 : 1);
      out.writeByteArray(7, info);
    });
  }

  private static void mapField(CodedOutputStream out, int field, Map<String, String> map) throws IOException {
    for (Map.Entry<String, String> e : map.entrySet()) {
      byte[] entry = write(o -> {
        o.writeString(1, e.getKey());
        o.writeString(2, e.getValue());
      });
      out.writeByteArray(field, entry);
    }
  }

  private interface Body {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] write(Body body) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      body.write(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
