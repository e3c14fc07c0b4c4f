package facts

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// Zip readers do not agree on every file. Go's archive/zip, Info-ZIP's
// unzip and Python's zipfile each find the end of central directory
// record by the last signature near the end of the file, but then part:
//
//   - When the record's offset of the central directory does not add up
//     with where the record stands (bytes before the archive or within
//     it), unzip looks first where the offset says after adding the bytes
//     it finds before the directory, and Go first where the offset says as
//     written: two directories, two lists of names, in one file.
//   - unzip takes an entry's name from its Unicode Path extra field (ID
//     0x7075) when the field's CRC matches the plain name; Go and Python
//     read the plain name alone.
//
// regate reads the names unzip and zipfile will write, or asks:
// zipReadAlike refuses an archive whose end does not leave one reading,
// and unicodePath gives the name unzip takes from the extra field, which
// is gated beside the plain one (a superset of both readings).

// zipEndLen is the length of the end of central directory record without
// its comment; zipMaxTail the furthest from the end of the file it can
// begin (its comment is at most 65,535 bytes).
const (
	zipEndLen  = 22
	zipMaxTail = zipEndLen + 0xffff
)

var (
	zipEndSig     = []byte("PK\x05\x06")
	zip64LocSig   = []byte("PK\x06\x07")
	errZipReading = errors.New("zip readers may read it differently")
)

// zipReadAlike checks that the zip archive r of size bytes, whose central
// directory Go read as entries entries, ends as every reader reads it
// alike: its last end record signature begins a record whose comment runs
// exactly to the end of the file, on one disk, without Zip64, and the
// central directory it names ends where the record begins and holds the
// entries the record counts.
func zipReadAlike(r io.ReaderAt, size int64, entries int) error {
	n := min(size, zipMaxTail)
	tail := make([]byte, n)
	if _, err := r.ReadAt(tail, size-n); err != nil && err != io.EOF {
		return err
	}
	at := bytes.LastIndex(tail, zipEndSig)
	if at < 0 || len(tail)-at < zipEndLen {
		return errors.New("its end record is missing or cut short")
	}
	rec := tail[at : at+zipEndLen]
	u16 := func(i int) uint32 { return uint32(binary.LittleEndian.Uint16(rec[i:])) }
	disk, dirDisk, here, total := u16(4), u16(6), u16(8), u16(10)
	dirSize, dirOffset := binary.LittleEndian.Uint32(rec[12:]), binary.LittleEndian.Uint32(rec[16:])
	pos := size - n + int64(at)
	switch {
	case pos+zipEndLen+int64(u16(20)) != size:
		return errors.New("bytes follow its end record's comment, or the comment is cut short: " + errZipReading.Error())
	case disk != 0 || dirDisk != 0 || here != total:
		return errors.New("it spans several disks")
	case total == 0xffff || dirSize == 0xffffffff || dirOffset == 0xffffffff,
		at >= 20 && bytes.Equal(tail[at-20:at-16], zip64LocSig):
		return errors.New("it is a Zip64 archive, which regate does not read")
	case int64(dirOffset)+int64(dirSize) != pos:
		return errors.New("its central directory is not where its end record says (bytes before or within the archive): " + errZipReading.Error())
	case int(total) != entries:
		return errors.New("its central directory holds other entries than its end record counts: " + errZipReading.Error())
	}
	return nil
}

// unicodePath is the name an entry's Info-ZIP Unicode Path extra field
// (ID 0x7075, version 1) gives it, which unzip uses in place of the plain
// name when the field's CRC is the plain name's; regate gates it whatever
// the CRC.
func unicodePath(extra []byte) (string, bool) {
	for len(extra) >= 4 {
		id, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		extra = extra[4:]
		if n > len(extra) {
			return "", false
		}
		if field := extra[:n]; id == 0x7075 && n > 5 && field[0] == 1 {
			return string(field[5:]), true
		}
		extra = extra[n:]
	}
	return "", false
}
