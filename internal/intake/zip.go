package intake

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/fray"
)

// ZipLimits bound an archive. Each must be set.
type ZipLimits struct {
	// What the archive is, for messages ("campaign archive").
	What string
	// MaxFiles bounds the entries (directories included).
	MaxFiles int
	// MaxFileBytes bounds one entry, uncompressed.
	MaxFileBytes int64
	// MaxTotalBytes bounds all the entries together, uncompressed.
	MaxTotalBytes int64
}

// Archive is a ZIP archive whose directory has been checked: nothing is
// decompressed until a File is read.
type Archive struct {
	Files []File
	// Size is what the files declare together, uncompressed: what reading
	// all of them may allocate, the cost of a Run that does.
	Size int64
}

// File is one entry of an Archive (directories are left out).
type File struct {
	// Name is the entry's path inside the archive, with forward slashes.
	Name string
	// Size is its declared uncompressed size.
	Size int64
	what string
	zf   *zip.File
}

// Unzip reads the directory of a ZIP archive held in data (read with Read,
// so its size is capped); see UnzipAt.
func Unzip(data []byte, lim ZipLimits) (*Archive, error) {
	return UnzipAt(bytes.NewReader(data), int64(len(data)), lim)
}

// UnzipAt reads the directory of a ZIP archive of size bytes in r — a file
// too large to hold in memory, such as a campaign archive. It refuses, before decompressing anything, more
// than MaxFiles entries, an entry declared larger than MaxFileBytes or
// entries together declared larger than MaxTotalBytes, an encrypted entry
// or one compressed otherwise than stored or deflated, and a name that is
// absolute, climbs out of the archive (..), holds a backslash, a control
// character or invalid UTF-8, or repeats another.
func UnzipAt(r io.ReaderAt, size int64, lim ZipLimits) (*Archive, error) {
	what := lim.What
	if what == "" {
		what = "archive"
	}
	if lim.MaxFiles <= 0 || lim.MaxFileBytes <= 0 || lim.MaxTotalBytes <= 0 {
		return nil, fray.Errorf(fray.EINTERNAL, "intake: unzip %s without limits", what)
	}
	// archive/zip allocates a File for each record the directory
	// declares: count them first.
	n, err := declaredFiles(r, size)
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "the %s cannot be read", what)
	}
	if n > lim.MaxFiles {
		return nil, fray.Errorf(fray.ETOOLARGE, "the %s holds %d files or more; at most %d are accepted", what, n, lim.MaxFiles)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fray.Errorf(fray.EINVALID, "the %s is not a ZIP archive, or is damaged", what)
	}
	if len(zr.File) > lim.MaxFiles {
		return nil, fray.Errorf(fray.ETOOLARGE, "the %s holds %d files; at most %d are accepted", what, len(zr.File), lim.MaxFiles)
	}
	a := &Archive{}
	seen := map[string]bool{}
	for _, zf := range zr.File {
		name := zf.Name
		if !cleanName(name) {
			return nil, fray.Errorf(fray.EINVALID, "the %s holds a file named %q, which is not a plain relative path", what, clip(name))
		}
		key := strings.TrimSuffix(name, "/")
		if seen[key] {
			return nil, fray.Errorf(fray.EINVALID, "the %s holds %q twice", what, clip(name))
		}
		seen[key] = true
		if zf.Flags&0x1 != 0 {
			return nil, fray.Errorf(fray.EINVALID, "the %s holds an encrypted file (%q)", what, clip(name))
		}
		if zf.Method != zip.Store && zf.Method != zip.Deflate {
			return nil, fray.Errorf(fray.EINVALID, "the %s holds %q compressed in a way this server does not read (only stored and deflated files)", what, clip(name))
		}
		if strings.HasSuffix(name, "/") || zf.FileInfo().IsDir() {
			continue
		}
		size := zf.UncompressedSize64
		if size > uint64(lim.MaxFileBytes) {
			return nil, fray.Errorf(fray.ETOOLARGE, "%q in the %s is %s uncompressed; a file in it may be at most %s", clip(name), what, Size(int64(min(size, 1<<62))), Size(lim.MaxFileBytes))
		}
		if a.Size += int64(size); a.Size > lim.MaxTotalBytes {
			return nil, fray.Errorf(fray.ETOOLARGE, "the %s's files are more than %s uncompressed, the most accepted", what, Size(lim.MaxTotalBytes))
		}
		a.Files = append(a.Files, File{Name: name, Size: int64(size), what: what, zf: zf})
	}
	return a, nil
}

// declaredFiles is the number of entries the archive's end of central
// directory record declares; for a ZIP64 archive (whose record says
// 0xFFFF), the number of directory records' signatures in the archive,
// which is at least as many.
func declaredFiles(r io.ReaderAt, size int64) (int, error) {
	return declaredFilesIn(r, size, 1<<20)
}

// declaredFilesIn is declaredFiles reading chunk bytes at a time.
func declaredFilesIn(r io.ReaderAt, size int64, chunkBytes int) (int, error) {
	const eocdLen = 22
	tail := min(size, eocdLen+0xffff)
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil && err != io.EOF {
		return 0, err
	}
	for i := len(buf) - eocdLen; i >= 0; i-- {
		if string(buf[i:i+4]) == "PK\x05\x06" {
			if n := int(binary.LittleEndian.Uint16(buf[i+10:])); n != 0xffff {
				return n, nil
			}
			break
		}
	}
	// Count signatures a chunk at a time; a chunk starts three bytes
	// before the previous one ended, so a signature across the seam is
	// seen once, in the later chunk.
	sig := []byte("PK\x01\x02")
	chunk := make([]byte, chunkBytes)
	n := 0
	for off := int64(0); off < size; {
		m, err := r.ReadAt(chunk, off)
		if err != nil && err != io.EOF {
			return 0, err
		}
		n += bytes.Count(chunk[:m], sig)
		if off+int64(m) >= size || m < len(sig) {
			break
		}
		off += int64(m - len(sig) + 1)
	}
	return n, nil
}

// cleanName reports whether name is a plain relative path.
func cleanName(name string) bool {
	if name == "" || len(name) > 1024 || !utf8.ValidString(name) || strings.ContainsRune(name, '\\') || strings.HasPrefix(name, "/") {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return false
		}
	}
	for _, part := range strings.Split(strings.TrimSuffix(name, "/"), "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return path.Clean(strings.TrimSuffix(name, "/")) == strings.TrimSuffix(name, "/")
}

// clip shortens a name for a message.
func clip(s string) string {
	if len(s) > 80 {
		s = strings.ToValidUTF8(s[:80], "") + "…"
	}
	return s
}

// Read decompresses the file: at most its declared size — a file that
// inflates past what the archive declared is refused — checked against
// its CRC-32, stopping when ctx is done (pass Run's context).
func (f File) Read(ctx context.Context) ([]byte, error) {
	rc, err := f.zf.Open()
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "%q in the %s cannot be read: the archive is damaged", clip(f.Name), f.what)
	}
	defer rc.Close()
	buf := bytes.NewBuffer(make([]byte, 0, f.Size))
	_, err = io.Copy(buf, io.LimitReader(&reader{ctx: ctx, r: rc}, f.Size+1))
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, fray.Errorf(fray.EINVALID, "%q in the %s cannot be read: the archive is damaged", clip(f.Name), f.what)
	case int64(buf.Len()) > f.Size:
		return nil, fray.Errorf(fray.EINVALID, "%q in the %s is larger than the archive says: the archive is damaged or hostile", clip(f.Name), f.what)
	}
	return buf.Bytes(), nil
}
