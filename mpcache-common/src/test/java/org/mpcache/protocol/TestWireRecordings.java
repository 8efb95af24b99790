package org.mpcache.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.MethodDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Message;
import org.apache.hadoop.util.VersionUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpcache.protocol.MasterReport.DataSetHistory;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;

/**
 * A rolling upgrade puts slaves and masters of two releases side by side (docs/architecture.md,
 * "Releases side by side"). Each release records, under {@code wire/<release>/}, the bytes its
 * slaves and admin tool send for a fixed set of sample calls and the bytes its master answers.
 * Recordings of past releases never change: this release's master must read what an older slave
 * sent as that slave meant it, and this release's slave must read an older master's answers as
 * that master meant them, call by call (a method added since has no recording there). The
 * newest recording is this release's own, and the code must still write exactly it; a change to
 * the wire within a release re-records it on purpose:
 * {@code mvn test -Dtest=TestWireRecordings -Dmpcache.wire.record=<release>} (from this module),
 * which writes {@code src/test/resources/org/mpcache/protocol/wire/<release>/}.
 */
class TestWireRecordings {
  private static final String RECORD = System.getProperty("mpcache.wire.record");
  private static final String PROTOCOL_FILE = "protocol";
  /** For the protocol's method descriptors and message prototypes. */
  private static final BlockingService SERVICE = MasterProtocolServerSideTranslatorPB.service(
      new SampleMaster(new ArrayList<>()), (datanodeUuid, proofs) -> { });
  /** What this release's sample slave proves itself with. */
  private static final List<SlaveProof> PROOFS = List.of(
      new SlaveProof(new byte[] {1, 2, 3, 4}, new byte[] {9, 8, 7}),
      new SlaveProof(new byte[] {5, 6}, new byte[] {0}));

  private static final SlaveUsage USAGE =
      new SlaveUsage(8L << 30, 3L << 30, 1L << 30, 2L << 30, 41, 17, 24, "ok", 5L << 20, 6L << 20);
  private static final SlaveUsage DEGRADED =
      new SlaveUsage(4L << 30, 0, 4L << 30, 0, 0, 3, 0, "disabled: SSD dir /ssd0 failed", 0, 0);
  private static final Registration REGISTRATION =
      new Registration("BP-1-127.0.0.1-1700000000000", 128L << 20);
  private static final MasterReport REPORT = new MasterReport("active", "mpcache",
      List.of(new NodeReport("uuid-a", "host-a", USAGE, 1500, 2),
          new NodeReport("uuid-b", "host-b", DEGRADED, 900_000, 0)),
      List.of(new DataSetReport("/puma/wordcount/input", 2.5, 6, 8, List.of("host-a", "host-b"),
          false, 0), new DataSetReport("/puma/grep/input", Double.NaN, 1, 1, List.of("host-a"),
          false, 0)),
      List.of(new DataSetHistory("/puma/wordcount/input", 8, 3, 42_000)));

  /** One sample call, returning what it answered (comparable by value). */
  @FunctionalInterface
  private interface SampleCall {
    Object on(MpCacheMasterProtocol master) throws IOException;
  }

  /**
   * The sample calls, as a slave and the admin tool make them, by the protocol method each
   * makes: one per method, in the order they are made.
   */
  private static final Map<String, SampleCall> SAMPLE_CALLS = sampleCalls();

  private static Map<String, SampleCall> sampleCalls() {
    Map<String, SampleCall> calls = new LinkedHashMap<>();
    calls.put("register", master -> master.register("uuid-a", "host-a", USAGE,
        new long[] {1073741825L, 1073741830L}));
    calls.put("heartbeat", master -> comparable(master.heartbeat("uuid-a", USAGE,
        new long[] {1073741825L}, new long[] {1073741831L, 1073741832L},
        new long[] {1073741833L}, new long[0])));
    calls.put("requestAdmission", master -> comparable(master.requestAdmission("uuid-a",
        1073741834L, 64L << 20, new long[] {1073741825L, 1073741825L})));
    calls.put("report", MpCacheMasterProtocol::report);
    calls.put("cachedOn",
        master -> master.cachedOn(new long[] {1073741825L, 1073741826L, 1073741827L}));
    calls.put("switchMaster", master -> master.switchMaster(false));
    calls.put("control", master -> master.control(MpCacheMasterProtocol.ControlOp.TTL,
        "/puma/wordcount/input/part-0", 7_200_000));
    calls.put("refresh", MpCacheMasterProtocol::refresh);
    return calls;
  }

  /**
   * Answers the sample calls as a master of this release may, and keeps what each call brought
   * (arrays as lists, so that calls compare by value).
   */
  private record SampleMaster(List<List<Object>> calls) implements MpCacheMasterProtocol {
    /** The slave check of the server side: what a slave's call proves. */
    void proven(String datanodeUuid, List<SlaveProof> proofs) {
      calls.add(List.of("proofs", datanodeUuid, comparable(proofs)));
    }

    @Override
    public Registration register(String datanodeUuid, String hostname, SlaveUsage usage,
        long[] cachedBlocks) {
      calls.add(List.of("register", datanodeUuid, hostname, usage, comparable(cachedBlocks)));
      return REGISTRATION;
    }

    @Override
    public HeartbeatAnswer heartbeat(String datanodeUuid, SlaveUsage usage, long[] hits,
        long[] misses, long[] cached, long[] removed) {
      calls.add(List.of("heartbeat", datanodeUuid, usage, comparable(hits), comparable(misses),
          comparable(cached), comparable(removed)));
      return HeartbeatAnswer.of(new long[] {1073741828L, 1073741829L}, new long[] {1073741835L});
    }

    @Override
    public AdmissionAnswer requestAdmission(String datanodeUuid, long blockId, long bytes,
        long[] hits) {
      calls.add(List.of("requestAdmission", datanodeUuid, blockId, bytes, comparable(hits)));
      return AdmissionAnswer.admit(new long[] {1073741828L});
    }

    @Override
    public MasterReport report() {
      calls.add(List.of("report"));
      return REPORT;
    }

    @Override
    public boolean switchMaster(boolean on) {
      calls.add(List.of("switchMaster", on));
      return true;
    }

    @Override
    public ControlAnswer control(ControlOp op, String path, long ttlMillis) {
      calls.add(List.of("control", op, path, ttlMillis));
      return new ControlAnswer("/puma/wordcount/input", true, ttlMillis, 6, 8, 0, 0);
    }

    @Override
    public RefreshAnswer refresh() {
      calls.add(List.of("refresh"));
      return new RefreshAnswer(List.of("dfs.mpcache.master.exclude.paths"), List.of(),
          List.of("dfs.mpcache.master.handler.count"));
    }

    @Override
    public List<List<String>> cachedOn(long[] blockIds) {
      calls.add(List.of("cachedOn", comparable(blockIds)));
      return List.of(List.of("uuid-a"), List.of(), List.of("uuid-a", "uuid-b"));
    }
  }

  /** Answers and arguments with arrays, as values that compare by content. */
  private static Object comparable(Object value) {
    if (value instanceof List<?> list) {
      return list.stream().map(TestWireRecordings::comparable).toList();
    }
    if (value instanceof SlaveProof proof) {
      return List.of(Arrays.toString(proof.identifier()), Arrays.toString(proof.password()));
    }
    if (value instanceof long[] longs) {
      return Arrays.stream(longs).boxed().toList();
    }
    if (value instanceof HeartbeatAnswer answer) {
      return List.of(answer.reregister(), comparable(answer.evict()), comparable(answer.load()));
    }
    if (value instanceof AdmissionAnswer answer) {
      return List.of(answer.verdict(), comparable(answer.evict()));
    }
    return value;
  }

  /** Request and response bytes of one call, by method name, in call order. */
  private record Exchange(Map<String, byte[]> requests, Map<String, byte[]> responses) {
    Exchange() {
      this(new LinkedHashMap<>(), new LinkedHashMap<>());
    }
  }

  /** Carries a call's bytes: given the method and the request's bytes, the response's bytes. */
  @FunctionalInterface
  private interface Transport {
    byte[] carry(MethodDescriptor method, byte[] request) throws Exception;
  }

  /** A slave-side client of this release whose calls go through {@code transport}. */
  private static MpCacheMasterProtocol client(Transport transport, Exchange seen) {
    InvocationHandler handler = (proxy, method, args) -> {
      MethodDescriptor descriptor =
          SERVICE.getDescriptorForType().findMethodByName(method.getName());
      byte[] request = ((Message) args[1]).toByteArray();
      byte[] response = transport.carry(descriptor, request);
      seen.requests().put(method.getName(), request);
      seen.responses().put(method.getName(), response);
      return SERVICE.getResponsePrototype(descriptor).getParserForType().parseFrom(response);
    };
    return new MasterProtocolClientSideTranslatorPB((MpCacheMasterProtocolPB) Proxy
        .newProxyInstance(TestWireRecordings.class.getClassLoader(),
            new Class<?>[] {MpCacheMasterProtocolPB.class}, handler), () -> PROOFS);
  }

  /** Serves request bytes with this release's server side over {@code master}. */
  private static byte[] serve(SampleMaster master, MethodDescriptor method,
      byte[] request) throws Exception {
    BlockingService service = MasterProtocolServerSideTranslatorPB.service(master, master::proven);
    Message parsed = service.getRequestPrototype(method).getParserForType().parseFrom(request);
    return service.callBlockingMethod(method, null, parsed).toByteArray();
  }

  /**
   * The sample calls between a slave and a master of this release, and their bytes; by method,
   * what it answered and what the master was told.
   */
  private record Live(Map<String, Object> answers, Map<String, List<List<Object>>> calls,
      Exchange exchange) {
    static Live run() throws IOException {
      List<List<Object>> told = new ArrayList<>();
      SampleMaster master = new SampleMaster(told);
      Exchange exchange = new Exchange();
      MpCacheMasterProtocol client =
          client((method, request) -> serve(master, method, request), exchange);
      Map<String, Object> answers = new LinkedHashMap<>();
      Map<String, List<List<Object>>> calls = new LinkedHashMap<>();
      for (Map.Entry<String, SampleCall> call : SAMPLE_CALLS.entrySet()) {
        int before = told.size();
        answers.put(call.getKey(), call.getValue().on(client));
        calls.put(call.getKey(), List.copyOf(told.subList(before, told.size())));
      }
      return new Live(answers, calls, exchange);
    }
  }

  /** The sample calls a release recorded: a method added later has no recording there. */
  private static List<String> recordedCalls(String release) {
    return SAMPLE_CALLS.keySet().stream()
        .filter(method -> Files.exists(recordings().resolve(release).resolve(method + ".request")))
        .toList();
  }

  private static String protocol() {
    return RPC.getProtocolName(MpCacheMasterProtocolPB.class) + " version "
        + RPC.getProtocolVersion(MpCacheMasterProtocolPB.class);
  }

  private static Path recordings() {
    try {
      return Path.of(TestWireRecordings.class.getResource("wire").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The recorded releases, oldest first ("0.9" before "0.10"). */
  static List<String> releases() throws IOException {
    try (Stream<Path> dirs = Files.list(recordings())) {
      return dirs.map(dir -> dir.getFileName().toString()).sorted(VersionUtil::compareVersions)
          .toList();
    }
  }

  private static byte[] recorded(Path release, String name) {
    try {
      return Files.readAllBytes(release.resolve(name));
    } catch (IOException e) {
      throw new AssertionError(release + " has no recording " + name
          + " (a new call? record it, as the class comment says)", e);
    }
  }

  private static byte[] recorded(String release, String name) {
    return recorded(recordings().resolve(release), name);
  }

  private static String recordedProtocol(Path release) {
    return new String(recorded(release, PROTOCOL_FILE), StandardCharsets.UTF_8).trim();
  }

  @Test
  void thisReleaseWritesWhatItsRecordingHolds() throws Exception {
    Live live = Live.run();
    Path newest;
    if (RECORD != null) {
      newest = Path.of("src/test/resources/org/mpcache/protocol/wire", RECORD);
      record(live.exchange(), newest);
    } else {
      List<String> releases = releases();
      assertFalse(releases.isEmpty(), "no recordings under " + recordings());
      newest = recordings().resolve(releases.get(releases.size() - 1));
    }
    assertEquals(recordedProtocol(newest), protocol(),
        "the RPC protocol name and version an older slave connects with");
    live.exchange().requests().forEach((method, bytes) -> assertArrayEquals(
        recorded(newest, method + ".request"), bytes, method + " request"));
    live.exchange().responses().forEach((method, bytes) -> assertArrayEquals(
        recorded(newest, method + ".response"), bytes, method + " response"));
  }

  private static void record(Exchange exchange, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(PROTOCOL_FILE), protocol() + "\n");
    for (Map.Entry<String, byte[]> request : exchange.requests().entrySet()) {
      Files.write(dir.resolve(request.getKey() + ".request"), request.getValue());
      Files.write(dir.resolve(request.getKey() + ".response"),
          exchange.responses().get(request.getKey()));
    }
  }

  @ParameterizedTest
  @MethodSource("releases")
  void aSlaveOfEachRecordedReleaseIsUnderstood(String release) throws Exception {
    Live live = Live.run();
    assertEquals(recordedProtocol(recordings().resolve(release)), protocol(),
        "a slave of " + release + " connects with this protocol name and version");
    assertFalse(recordedCalls(release).isEmpty(), release + " recorded no call");
    for (String method : recordedCalls(release)) {
      List<List<Object>> told = new ArrayList<>();
      serve(new SampleMaster(told), SERVICE.getDescriptorForType().findMethodByName(method),
          recorded(release, method + ".request"));
      assertEquals(live.calls().get(method), told,
          "what a " + method + " of a slave of " + release + " told this master");
    }
  }

  @ParameterizedTest
  @MethodSource("releases")
  void aMasterOfEachRecordedReleaseIsUnderstood(String release) throws Exception {
    Live live = Live.run();
    MpCacheMasterProtocol client = client(
        (method, request) -> recorded(release, method.getName() + ".response"), new Exchange());
    for (String method : recordedCalls(release)) {
      assertEquals(live.answers().get(method), SAMPLE_CALLS.get(method).on(client),
          "what a master of " + release + " answered to " + method);
    }
  }
}
