package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;
import org.mpcache.puma.InputSource;
import org.mpcache.puma.PumaBenchmarks;

class TestStreamPlacement {
  private static final long MB = 1 << 20;
  private static final WorkloadMix MIX =
      new WorkloadMix(PumaBenchmarks.all(), 24, 30, 1.0, 4, 8 * MB, 1);

  @Test
  void theStreamsFilesGoToTheNodesInTurnAcrossDataSets() {
    StreamPlacement placement = new StreamPlacement(MIX, 8 * MB);
    List<Integer> nodes = new ArrayList<>();
    for (DataSet dataSet : MIX.dataSets()) {
      assertEquals(nodes.size(), placement.firstFile(dataSet), dataSet.toString());
      for (int i = 0; i < InputSource.files(dataSet.bytes(), 8 * MB); i++) {
        nodes.add(placement.node(dataSet, i, 3));
      }
    }
    for (int file = 0; file < nodes.size(); file++) {
      assertEquals(file % 3, nodes.get(file), "file " + file + " of the stream");
    }
  }

  @Test
  void aDataSetOutsideTheStreamIsRefused() {
    DataSet outside = new DataSet(MIX.dataSets().iterator().next().source(), 99, 8 * MB);
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> new StreamPlacement(MIX, 8 * MB).firstFile(outside));
    assertEquals(outside + " is not one of the stream's data sets", refused.getMessage());
  }
}
