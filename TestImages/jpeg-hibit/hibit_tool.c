/* Reference helper for TestImages/jpeg-hibit/make_fixtures.py: drives the libjpeg-turbo 3 library
 * that imagecodecs bundles. Commands:
 *   decode12 IN.jpg DENOM OUT.raw      12-bit decode at scale 1/DENOM; prints "W H C"; raw BE16 samples
 *   encode12p IN.raw W H C QUALITY OUT.jpg   12-bit progressive (jpeg_simple_progression) from BE16 samples
 *   encode12s IN.raw W H C QUALITY HV SCRIPT OUT.jpg   the same with luma sampling HV ("22": 4:2:0, "11":
 *            4:4:4) and the scans of SCRIPT: one per line, "components Ss Se Ah Al", components as digits
 *            ("012 0 0 0 1" is an interleaved DC scan of all three with Al = 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jpeglib.h"

typedef short J12SAMPLE;
typedef J12SAMPLE *J12SAMPROW;
extern JDIMENSION jpeg12_read_scanlines(j_decompress_ptr, J12SAMPROW *, JDIMENSION);
extern JDIMENSION jpeg12_write_scanlines(j_compress_ptr, J12SAMPROW *, JDIMENSION);

static unsigned char *slurp(const char *path, long *size) {
  FILE *f = fopen(path, "rb"); if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END); *size = ftell(f); fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*size); if (fread(b, 1, *size, f) != (size_t)*size) exit(2); fclose(f); return b;
}

int main(int argc, char **argv) {
  struct jpeg_error_mgr jerr;
  if (argc == 5 && !strcmp(argv[1], "decode12")) {
    struct jpeg_decompress_struct d; long size; unsigned char *data = slurp(argv[2], &size);
    d.err = jpeg_std_error(&jerr); jpeg_create_decompress(&d);
    jpeg_mem_src(&d, data, size); jpeg_read_header(&d, TRUE);
    d.scale_num = 1; d.scale_denom = atoi(argv[3]);
    jpeg_start_decompress(&d);
    int w = d.output_width, h = d.output_height, c = d.output_components;
    FILE *out = fopen(argv[4], "wb");
    J12SAMPLE *row = malloc(sizeof(J12SAMPLE) * w * c); unsigned char *be = malloc(2 * w * c);
    while (d.output_scanline < d.output_height) {
      J12SAMPROW rows[1] = { row }; jpeg12_read_scanlines(&d, rows, 1);
      for (int i = 0; i < w * c; i++) { be[2 * i] = (unsigned short)row[i] >> 8; be[2 * i + 1] = row[i] & 255; }
      fwrite(be, 1, 2 * w * c, out);
    }
    jpeg_finish_decompress(&d); fclose(out); printf("%d %d %d\n", w, h, c); return 0;
  }
  if ((argc == 8 && !strcmp(argv[1], "encode12p")) || (argc == 10 && !strcmp(argv[1], "encode12s"))) {
    int scripted = argc == 10;
    struct jpeg_compress_struct e; long size; unsigned char *data = slurp(argv[2], &size);
    int w = atoi(argv[3]), h = atoi(argv[4]), c = atoi(argv[5]);
    e.err = jpeg_std_error(&jerr); jpeg_create_compress(&e);
    FILE *out = fopen(argv[scripted ? 9 : 7], "wb"); jpeg_stdio_dest(&e, out);
    e.image_width = w; e.image_height = h; e.input_components = c;
    e.in_color_space = c == 1 ? JCS_GRAYSCALE : JCS_RGB; e.data_precision = 12;
    jpeg_set_defaults(&e); jpeg_set_quality(&e, atoi(argv[6]), TRUE);
    if (!scripted) {
      jpeg_simple_progression(&e);
    } else {
      static jpeg_scan_info scans[64]; int n = 0; char components[8];
      e.comp_info[0].h_samp_factor = argv[7][0] - '0'; e.comp_info[0].v_samp_factor = argv[7][1] - '0';
      FILE *script = fopen(argv[8], "r"); if (!script) { perror(argv[8]); exit(2); }
      while (n < 64 && fscanf(script, "%7s %d %d %d %d", components, &scans[n].Ss, &scans[n].Se, &scans[n].Ah, &scans[n].Al) == 5) {
        scans[n].comps_in_scan = (int)strlen(components);
        for (int i = 0; i < scans[n].comps_in_scan; i++) scans[n].component_index[i] = components[i] - '0';
        n++;
      }
      fclose(script); e.scan_info = scans; e.num_scans = n;
    }
    jpeg_start_compress(&e, TRUE);
    J12SAMPLE *row = malloc(sizeof(J12SAMPLE) * w * c);
    for (int y = 0; y < h; y++) {
      for (int i = 0; i < w * c; i++) row[i] = data[2 * (y * w * c + i)] << 8 | data[2 * (y * w * c + i) + 1];
      J12SAMPROW rows[1] = { row }; jpeg12_write_scanlines(&e, rows, 1);
    }
    jpeg_finish_compress(&e); fclose(out); return 0;
  }
  fprintf(stderr, "usage: decode12 IN DENOM OUT | encode12p IN W H C QUALITY OUT | encode12s IN W H C QUALITY HV SCRIPT OUT\n"); return 1;
}
