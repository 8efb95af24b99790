package org.apache.hadoop.hdfs.server.datanode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doNothing;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.mpcache.slave.inputcache.CacheTestCluster.BLOCK_SIZE;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.InvalidRequestException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.ExtendedBlockId;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.shortcircuit.ShortCircuitShm.ShmId;
import org.apache.hadoop.hdfs.shortcircuit.ShortCircuitShm.Slot;
import org.apache.hadoop.hdfs.shortcircuit.ShortCircuitShm.SlotId;
import org.apache.hadoop.net.unix.DomainSocket;
import org.apache.hadoop.thirdparty.com.google.common.collect.HashMultimap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.slave.inputcache.SsdInputCache;

/**
 * Short-circuit readers that get file descriptors from the DataNode: which files they get, and
 * which blocks' shared-memory slots the DataNode revokes. Each request goes through
 * {@code DataXceiver.requestShortCircuitFds}, the DataNode's own entry point (it registers the
 * request's slot, then asks the dataset for the descriptors), over a stand-in domain socket.
 *
 * <p>Descriptor passing and shared memory need libhadoop, which the Maven artifacts do not ship,
 * so here (and in CI) the DataNode's {@code ShortCircuitRegistry} is disabled: the revocation is
 * tested at the registry seam, with a Mockito stand-in recording {@code registerSlot} and
 * {@code processBlockInvalidation}. This also guards the Hadoop internal the cache relies on:
 * that {@code requestShortCircuitFds} asks the dataset {@code isCached} only for a request with
 * a slot, before it asks for the descriptors.
 */
@Timeout(180)
class TestMpCacheShortCircuitFds {
  private static CacheTestCluster cluster;
  private DataNode dn;
  private ShortCircuitRegistry stockRegistry;
  private ShortCircuitRegistry registry;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = CacheTestCluster.start("scr-fds", CacheTestCluster.conf(), 1, null);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void standInRegistry() throws Exception {
    dn = cluster.mini().getDataNodes().get(0);
    allowFdPassingWithoutNativeCode(dn);
    stockRegistry = dn.shortCircuitRegistry;
    registry = mock(ShortCircuitRegistry.class);
    // A registry that holds the slots registered, until they are unregistered.
    HashMultimap<ExtendedBlockId, Slot> slots = HashMultimap.create();
    Map<SlotId, Slot> byId = new HashMap<>();
    doAnswer(invocation -> {
      Slot slot = mock(Slot.class);
      byId.put(invocation.getArgument(1), slot);
      return slots.put(invocation.getArgument(0), slot);
    }).when(registry).registerSlot(any(), any(), anyBoolean());
    doAnswer(invocation -> {
      Slot slot = byId.remove(invocation.getArgument(0));
      return slots.values().remove(slot);
    }).when(registry).unregisterSlot(any());
    when(registry.visit(any())).thenAnswer(invocation -> invocation
        .<ShortCircuitRegistry.Visitor>getArgument(0).accept(new HashMap<>(), slots));
    when(registry.getClientNames(any())).thenAnswer(invocation ->
        slots.containsKey(invocation.getArgument(0)) ? "a local client" : "");
    dn.shortCircuitRegistry = registry;
  }

  @AfterEach
  void stockRegistry() {
    dn.shortCircuitRegistry = stockRegistry;
  }

  /** What a request got: the response status and the bytes of each file passed. */
  private record Handout(Status status, List<byte[]> files) {
  }

  private static final SlotId SLOT = new SlotId(new ShmId(7, 11), 3);

  @Test
  void aRequestWithASlotGetsTheSsdCopyVerifiedFirst() throws Exception {
    Path file = new Path("/with-slot");
    byte[] data = cluster.writeCached(file, BLOCK_SIZE, 1);
    cluster.garbleHddReplicas(file);
    ExtendedBlock block = cluster.blocks(file).get(0).getBlock();
    long verifications = cluster.counter(0, CacheCounter.HANDOUT_VERIFICATIONS);

    Handout handout = request(block, SLOT);

    assertEquals(Status.SUCCESS, handout.status());
    assertArrayEquals(data, handout.files().get(0), "the SSD copy's data");
    assertTrue(handout.files().get(1).length > BlockMetadataHeader.getHeaderSize());
    verify(registry).registerSlot(eq(ExtendedBlockId.fromExtendedBlock(block)), eq(SLOT),
        eq(false));
    assertEquals(verifications + 1, cluster.counter(0, CacheCounter.HANDOUT_VERIFICATIONS),
        "read and verified whole before the hand-out");
  }

  @Test
  void aRequestWithoutASlotGetsTheHddReplica() throws Exception {
    Path file = new Path("/without-slot");
    byte[] data = cluster.writeCached(file, BLOCK_SIZE, 2);
    cluster.garbleHddReplicas(file);
    ExtendedBlock block = cluster.blocks(file).get(0).getBlock();

    Handout handout = request(block, null);

    assertEquals(Status.SUCCESS, handout.status());
    assertFalse(Arrays.equals(data, handout.files().get(0)),
        "no slot to revoke the copy through: the (garbled) HDD replica is handed out");
  }

  @Test
  void aSlotTheRegistryDoesNotHoldIsNoSlot() throws Exception {
    Path file = new Path("/unregistered-slot");
    byte[] data = cluster.writeCached(file, BLOCK_SIZE, 12);
    cluster.garbleHddReplicas(file);
    ExtendedBlock block = cluster.blocks(file).get(0).getBlock();
    doNothing().when(registry).registerSlot(eq(ExtendedBlockId.fromExtendedBlock(block)), any(),
        anyBoolean());

    Handout handout = request(block, SLOT);

    assertEquals(Status.SUCCESS, handout.status());
    assertFalse(Arrays.equals(data, handout.files().get(0)), "the HDD replica's descriptors");
  }

  /**
   * A request whose slot registration fails, or which fails after it (the DataNode then
   * unregisters the slot), leaves nothing a later request on the same connection could pass
   * for its own slot: that one, without a slot, gets the HDD replica even while another reader
   * holds a slot of the block.
   */
  @Test
  void aFailedSlotRequestLeavesNoSlotToTheNextRequestOnItsConnection() throws Exception {
    Path file = new Path("/failed-slot");
    byte[] data = cluster.writeCached(file, BLOCK_SIZE, 14);
    ExtendedBlock block = cluster.blocks(file).get(0).getBlock();
    assertArrayEquals(data, request(block, new SlotId(new ShmId(7, 12), 4)).files().get(0),
        "another reader holds a slot of the block and the copy");
    cluster.garbleHddReplicas(file);

    SlotId unknown = new SlotId(new ShmId(7, 13), 5);
    doThrow(new InvalidRequestException("there is no shared memory segment registered"))
        .when(registry).registerSlot(any(), eq(unknown), anyBoolean());
    assertEquals(Status.ERROR, request(block, unknown).status(), "the registration failed");
    assertFalse(Arrays.equals(data, request(block, null).files().get(0)),
        "no slot: the HDD replica's descriptors");

    Handout unsupported = request(block, SLOT, 0);
    assertEquals(Status.ERROR_UNSUPPORTED, unsupported.status(), "a version the client lacks");
    verify(registry).unregisterSlot(SLOT);
    assertFalse(Arrays.equals(data, request(block, null).files().get(0)),
        "no slot: the HDD replica's descriptors");
  }

  @Test
  void aBlockKeptInMemoryNeverHandsOutItsCopy() throws Exception {
    Path file = new Path("/in-memory");
    byte[] data = cluster.writeCached(file, BLOCK_SIZE, 13);
    ExtendedBlock block = cluster.blocks(file).get(0).getBlock();
    assertArrayEquals(data, request(block, SLOT).files().get(0), "the copy, at first");
    cluster.garbleHddReplicas(file);

    // HDFS centralized caching asks the DataNode to keep the block in memory: slots of such
    // blocks become anchorable and their readers may skip checksums.
    dn.getFSDataset().cache(block.getBlockPoolId(), new long[] {block.getBlockId()});
    verify(registry).processBlockInvalidation(ExtendedBlockId.fromExtendedBlock(block));
    assertFalse(Arrays.equals(data, request(block, SLOT).files().get(0)),
        "the HDD replica's descriptors from now on");
    dn.getFSDataset().uncache(block.getBlockPoolId(), new long[] {block.getBlockId()});
  }

  @Test
  void aRequestForAnotherGenerationGetsNoCopy() throws Exception {
    Path file = new Path("/old-generation");
    cluster.writeCached(file, BLOCK_SIZE, 3);
    ExtendedBlock block = cluster.blocks(file).get(0).getBlock();
    ExtendedBlock older = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(),
        block.getNumBytes(), block.getGenerationStamp() - 1);

    Handout handout = request(older, SLOT);

    assertEquals(Status.ERROR, handout.status(), "stock refuses a generation it does not hold");
    assertTrue(handout.files().isEmpty());
  }

  @Test
  void everyCopyThatLeavesTheCacheRevokesItsBlocksSlots() throws Exception {
    Path evicted = new Path("/evicted");
    cluster.writeCached(evicted, BLOCK_SIZE, 4);
    ExtendedBlock evictedBlock = cluster.blocks(evicted).get(0).getBlock();
    assertEquals(Status.SUCCESS, request(evictedBlock, SLOT).status());
    cache().evict(evictedBlock.getBlockPoolId(), new long[] {evictedBlock.getBlockId()});
    verify(registry).processBlockInvalidation(ExtendedBlockId.fromExtendedBlock(evictedBlock));

    Path appended = new Path("/appended");
    cluster.writeCached(appended, BLOCK_SIZE / 2, 5);
    ExtendedBlock appendedBlock = cluster.blocks(appended).get(0).getBlock();
    assertEquals(Status.SUCCESS, request(appendedBlock, SLOT).status());
    try (FSDataOutputStream out = cluster.fs().append(appended)) {
      out.write(new byte[100]);
    }
    verify(registry, atLeastOnce()).processBlockInvalidation(
        ExtendedBlockId.fromExtendedBlock(appendedBlock));
    assertFalse(cluster.isCached(cluster.blocks(appended).get(0)));

    Path corrupt = new Path("/rotten");
    cluster.writeCached(corrupt, BLOCK_SIZE, 6);
    LocatedBlock corruptBlock = cluster.blocks(corrupt).get(0);
    CacheTestCluster.overwrite(cluster.copyDataFile(corruptBlock), BLOCK_SIZE / 2, 1);
    long dropped = cluster.counter(0, CacheCounter.CORRUPT_DROPPED);
    Handout handout = request(corruptBlock.getBlock(), SLOT);
    assertEquals(Status.SUCCESS, handout.status());
    assertEquals(dropped + 1, cluster.counter(0, CacheCounter.CORRUPT_DROPPED),
        "the hand-out's verification found the rot");
    verify(registry).processBlockInvalidation(
        ExtendedBlockId.fromExtendedBlock(corruptBlock.getBlock()));
  }

  private SsdInputCache cache() {
    return cluster.ssdCache(0);
  }

  /**
   * One {@code REQUEST_SHORT_CIRCUIT_FDS} operation as a local client sends it, {@code slot}
   * null for a client without shared memory; the passed files are read as the client would.
   */
  private Handout request(ExtendedBlock block, SlotId slot) throws IOException {
    return request(block, slot, 1);
  }

  /** As {@link #request(ExtendedBlock, SlotId)}, from a client of that block format version. */
  private Handout request(ExtendedBlock block, SlotId slot, int maxVersion) throws IOException {
    Peer peer = mock(Peer.class);
    DomainSocket socket = mock(DomainSocket.class);
    ByteArrayOutputStream response = new ByteArrayOutputStream();
    when(peer.getOutputStream()).thenReturn(response);
    when(peer.getInputStream()).thenReturn(new ByteArrayInputStream(new byte[0]));
    when(peer.getRemoteAddressString()).thenReturn("127.0.0.1:0");
    when(peer.getLocalAddressString()).thenReturn("127.0.0.1:0");
    when(peer.getDomainSocket()).thenReturn(socket);
    List<byte[]> files = new ArrayList<>();
    doAnswer(invocation -> {
      for (FileDescriptor fd : (FileDescriptor[]) invocation.getArgument(0)) {
        files.add(new FileInputStream(fd).readAllBytes()); // closed with the DataNode's stream
      }
      return null;
    }).when(socket).sendFileDescriptors(any(), any(), anyInt(), anyInt());

    DataXceiver.create(peer, dn, null).requestShortCircuitFds(block, null, slot, maxVersion,
        false);
    Status status = BlockOpResponseProto.parseDelimitedFrom(
        new ByteArrayInputStream(response.toByteArray())).getStatus();
    return new Handout(status, files);
  }

  /**
   * Descriptor passing needs libhadoop's domain sockets; the DataNode records why it is off. The
   * passing itself is not under test, only which files the dataset opens, so the recorded
   * reason is cleared.
   */
  private static void allowFdPassingWithoutNativeCode(DataNode dn) throws Exception {
    Field reason = DataNode.class.getDeclaredField("fileDescriptorPassingDisabledReason");
    reason.setAccessible(true);
    reason.set(dn, null);
  }
}
