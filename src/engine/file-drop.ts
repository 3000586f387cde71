import { useRef, useState, type DragEvent } from 'react';

const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

/**
 * Files dropped anywhere on an element (spread `handlers` on it) go to `onFiles`; `dragging`
 * says files are held over it, for a "drop here" sign. Other drags (text, a row) pass by.
 */
export function useFileDrop(onFiles: (files: FileList) => void) {
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave come for every child crossed: over the element until as many left as entered
  const depth = useRef(0);
  const handlers = {
    onDragEnter: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    },
    onDragLeave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      onFiles(e.dataTransfer.files);
    },
  };
  return { dragging, handlers };
}
