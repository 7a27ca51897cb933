package pgcluster

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// ownerSuffix names the file beside a fallback cluster (pg-<hex>.data-dir)
// that records the data directory it stands for. initdb wants the cluster's
// own directory empty, so the record cannot live inside it.
const ownerSuffix = ".data-dir"

// recordOwner writes, beside the fallback cluster dir, the data directory it
// was made for, so that a later Start can tell when that directory is gone.
func recordOwner(dir, dataDir string) error {
	return os.WriteFile(dir+ownerSuffix, []byte(dataDir+"\n"), 0o644)
}

// sweepOrphans removes the fallback clusters under root whose data directory
// was a temporary one (under tmp) that no longer exists and which no running
// postgres holds. A load generator's or a script's throw-away server (a data
// directory from mktemp, which root's postgres user cannot traverse) would
// otherwise leave its whole cluster behind for good. A cluster whose data
// directory lies anywhere else is never removed: a missing directory there
// may be an unmounted disk, not a deleted one.
func sweepOrphans(root, tmp string, log *slog.Logger) {
	records, _ := filepath.Glob(filepath.Join(root, "pg-*"+ownerSuffix))
	tmp = filepath.Clean(tmp) + string(filepath.Separator)
	for _, record := range records {
		b, err := os.ReadFile(record)
		if err != nil {
			continue
		}
		dataDir := strings.TrimSpace(string(b))
		if !strings.HasPrefix(filepath.Clean(dataDir), tmp) {
			continue
		}
		if _, err := os.Lstat(dataDir); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		cluster := strings.TrimSuffix(record, ownerSuffix)
		if pm, err := readPostmasterPID(filepath.Join(cluster, "postmaster.pid")); err == nil && isPostmasterFor(pm.pid, cluster) {
			continue
		}
		if err := os.RemoveAll(cluster); err != nil {
			log.Warn("cannot remove the cluster of a deleted temporary data directory", "cluster_dir", cluster, "err", err)
			continue
		}
		_ = os.Remove(record)
		log.Info("removed the cluster of a deleted temporary data directory", "data_dir", dataDir, "cluster_dir", cluster)
	}
}
