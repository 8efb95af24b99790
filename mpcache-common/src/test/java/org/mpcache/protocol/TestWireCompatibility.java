package org.mpcache.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.UnknownFieldSet;
import org.junit.jupiter.api.Test;
import org.mpcache.protocol.proto.MpCacheMasterProtos.UsageProto;

/**
 * Slaves and masters one release apart understand each other's messages (a rolling upgrade of
 * the DataNodes): a field this release added reads as 0 from an older peer, and a field a newer
 * peer adds is carried over without breaking the parse.
 */
class TestWireCompatibility {
  private static final SlaveUsage USAGE =
      new SlaveUsage(1 << 30, 1 << 20, 1 << 21, 1 << 22, 5, 6, 7, "ok", 800, 900);

  @Test
  void usageRoundTrips() {
    assertEquals(USAGE, PBHelper.fromProto(PBHelper.toProto(USAGE)));
  }

  @Test
  void usageFromASlaveWithoutTheByteCountsReadsThemAsZero() throws Exception {
    UsageProto older = PBHelper.toProto(USAGE).toBuilder().clearBytesFromSsd()
        .clearBytesFromHdd().build();
    SlaveUsage read = PBHelper.fromProto(UsageProto.parseFrom(older.toByteArray()));
    assertEquals(0, read.bytesFromSsd());
    assertEquals(0, read.bytesFromHdd());
    assertEquals(USAGE.hits(), read.hits());
    assertEquals(USAGE.state(), read.state());
  }

  @Test
  void usageFromANewerSlaveWithAnUnknownFieldParses() throws Exception {
    UsageProto newer = PBHelper.toProto(USAGE).toBuilder().setUnknownFields(
        UnknownFieldSet.newBuilder().addField(99, UnknownFieldSet.Field.newBuilder()
            .addLengthDelimited(ByteString.copyFromUtf8("a later release's field")).build())
            .build()).build();
    assertEquals(USAGE, PBHelper.fromProto(UsageProto.parseFrom(newer.toByteArray())));
  }
}
